import { createServer as createPlainServer, type Server, type Socket } from 'node:net'
import { createSecureContext, createServer as createTlsServer, TLSSocket } from 'node:tls'
import type { SMTPServer } from 'smtp-server'
import type { SelfSignedPems } from './certificate.ts'
import { closeServer, listenLocal } from './fixtures.ts'

export interface MailServerOptions {
  certificate: SelfSignedPems
  /** TLS from the first byte (ports 465, 993, 995). */
  implicitTls?: boolean
  /** Whether STARTTLS (POP3: STLS) is offered on the plain connection; default true. */
  startTls?: boolean
  /** Accounts that may log in, username → password. */
  users?: Record<string, string>
  /** The first line the server sends; default a protocol's OK greeting. */
  greeting?: string
}

export interface MailServerFixture {
  port: number
  /** Every command line received, in order, on every connection. */
  commands: string[]
  close(): Promise<void>
}

/** What a responder does with a line: the lines to answer, and and whether TLS starts or the session ends after them. */
interface Answer {
  lines: string[]
  after?: 'starttls' | 'end'
}

/**
 * A line-per-command server on 127.0.0.1 speaking only what the probe's IMAP and POP3 checks send;
 * STARTTLS upgrades the same socket, as a real server does.
 */
async function startLineServer(
  options: MailServerOptions,
  greeting: string,
  answer: (line: string) => Answer,
): Promise<MailServerFixture> {
  const commands: string[] = []
  const sockets = new Set<Socket>()
  const secureContext = createSecureContext({ key: options.certificate.key, cert: options.certificate.cert })
  const serve = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buffered = ''
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      let end = buffered.indexOf('\r\n')
      while (end !== -1) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        commands.push(line)
        const { lines, after } = answer(line)
        for (const reply of lines) socket.write(`${reply}\r\n`)
        if (after === 'end') socket.end()
        if (after === 'starttls') {
          socket.removeListener('data', onData)
          serve(new TLSSocket(socket, { isServer: true, secureContext }))
          return
        }
        end = buffered.indexOf('\r\n')
      }
    }
    socket.on('data', onData)
  }
  const server: Server = options.implicitTls
    ? createTlsServer({ key: options.certificate.key, cert: options.certificate.cert }, (socket) => {
        serve(socket)
        socket.write(`${greeting}\r\n`)
      })
    : createPlainServer((socket) => {
        serve(socket)
        socket.write(`${greeting}\r\n`)
      })
  const port = await listenLocal(server)
  return {
    port,
    commands,
    async close() {
      for (const socket of sockets) socket.destroy()
      await closeServer(server)
    },
  }
}

/** IMAP quoted strings, as the probe sends them: `"a\"b"` → `a"b`. */
const unquote = (text: string) =>
  [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'))

/** An IMAP server: greeting, CAPABILITY, STARTTLS, LOGIN against `users`, LOGOUT. */
export function startImapServer(options: MailServerOptions): Promise<MailServerFixture> {
  const offersTls = options.startTls ?? true
  return startLineServer(options, options.greeting ?? '* OK [CAPABILITY IMAP4rev1] fixture ready', (line) => {
    const [tag = '*', verb = '', ...rest] = line.split(' ')
    switch (verb.toUpperCase()) {
      case 'CAPABILITY':
        return { lines: [`* CAPABILITY IMAP4rev1${offersTls ? ' STARTTLS' : ''}`, `${tag} OK done`] }
      case 'STARTTLS':
        return offersTls
          ? { lines: [`${tag} OK begin TLS`], after: 'starttls' }
          : { lines: [`${tag} BAD unknown command`] }
      case 'LOGIN': {
        const [username = '', password] = unquote(rest.join(' '))
        const known = options.users?.[username]
        return known !== undefined && known === password
          ? { lines: [`${tag} OK logged in`] }
          : { lines: [`${tag} NO [AUTHENTICATIONFAILED] invalid credentials`] }
      }
      case 'LOGOUT':
        return { lines: ['* BYE logging out', `${tag} OK done`], after: 'end' }
      default:
        return { lines: [`${tag} BAD unknown command`] }
    }
  })
}

/** A POP3 server: greeting, STLS, USER/PASS against `users`, QUIT. */
export function startPop3Server(options: MailServerOptions): Promise<MailServerFixture> {
  const offersTls = options.startTls ?? true
  let user: string | undefined
  return startLineServer(options, options.greeting ?? '+OK fixture ready', (line) => {
    const [verb = '', ...rest] = line.split(' ')
    const argument = rest.join(' ')
    switch (verb.toUpperCase()) {
      case 'STLS':
        return offersTls ? { lines: ['+OK begin TLS'], after: 'starttls' } : { lines: ['-ERR unknown command'] }
      case 'USER':
        user = argument
        return { lines: ['+OK send PASS'] }
      case 'PASS': {
        const known = user === undefined ? undefined : options.users?.[user]
        return known !== undefined && known === argument
          ? { lines: ['+OK logged in'] }
          : { lines: ['-ERR [AUTH] invalid credentials'] }
      }
      case 'QUIT':
        return { lines: ['+OK bye'], after: 'end' }
      default:
        return { lines: ['-ERR unknown command'] }
    }
  })
}

export interface SmtpServerFixture {
  port: number
  /** The usernames of every AUTH attempt, in order. */
  authAttempts: string[]
  close(): Promise<void>
}

/** nodemailer's smtp-server on 127.0.0.1, with STARTTLS (or implicit TLS) and `users` for AUTH. */
export async function startSmtpServer(options: MailServerOptions & { banner?: string }): Promise<SmtpServerFixture> {
  const { SMTPServer } = await import('smtp-server')
  const authAttempts: string[] = []
  const server: SMTPServer = new SMTPServer({
    secure: options.implicitTls ?? false,
    key: options.certificate.key,
    cert: options.certificate.cert,
    ...(options.banner ? { banner: options.banner } : {}),
    hideSTARTTLS: !(options.startTls ?? true),
    authOptional: true,
    // The client is 127.0.0.1; a reverse lookup of it only adds the resolver's latency to every session.
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      authAttempts.push(auth.username ?? '')
      const known = options.users?.[auth.username ?? '']
      if (known !== undefined && known === auth.password) callback(null, { user: auth.username })
      else callback(new Error('invalid credentials'))
    },
  })
  const port = await listenLocal(server.server)
  return {
    port,
    authAttempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
