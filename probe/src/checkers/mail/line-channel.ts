import { connect as connectPlain, type Socket } from 'node:net'
import { StringDecoder } from 'node:string_decoder'
import { connect as connectTls, type TLSSocket } from 'node:tls'
import { DialogueError } from '../dialogue-error.ts'
import { secureContext } from '../secure-context.ts'

/** Longer lines than this (in characters) are no mail protocol’s replies; stop buffering rather than grow without end. */
const MAX_LINE_LENGTH = 16 * 1024

interface Waiter {
  resolve(line: string): void
  reject(error: Error): void
}

/**
 * A CRLF line dialogue over TCP that can turn into TLS midway (STARTTLS, STLS), shared by the
 * SMTP, IMAP and POP3 checks. Every read ends when the check's signal aborts.
 */
export class LineChannel {
  private buffered = ''
  private lines: string[] = []
  private waiter: Waiter | undefined
  private failure: Error | undefined
  private closed = false
  private decoder = new StringDecoder('utf8')
  /** When the server's first line arrived: the check's first-byte time. */
  firstLineAt: number | undefined
  private readonly onData = (chunk: Buffer) => this.receive(this.decoder.write(chunk))
  private readonly onError = (error: Error) => this.fail(error)
  private readonly onClose = () => this.fail(new DialogueError('protocol_error', 'the server closed the connection'))
  private readonly onAbort = () =>
    this.socket.destroy(this.signal.reason instanceof Error ? this.signal.reason : new Error('aborted'))

  private constructor(
    private socket: Socket,
    private readonly signal: AbortSignal,
  ) {
    this.attach()
    signal.addEventListener('abort', this.onAbort, { once: true })
  }

  /** Opens the connection (TLS from the first byte when `tls`); resolves once it is established. */
  static open(options: {
    address: string
    port: number
    servername: string | undefined
    tls: boolean
    signal: AbortSignal
  }) {
    const { address, port, servername, tls, signal } = options
    signal.throwIfAborted()
    return new Promise<{ channel: LineChannel; connectedAt: number }>((resolve, reject) => {
      const socket = tls
        ? connectTls(tlsOptions(servername, { host: address, port }))
        : connectPlain({ host: address, port })
      let connectedAt = performance.now()
      const onAbort = () => socket.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      signal.addEventListener('abort', onAbort, { once: true })
      socket.once('connect', () => {
        connectedAt = performance.now()
      })
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      })
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        signal.removeEventListener('abort', onAbort)
        socket.removeAllListeners('error')
        resolve({ channel: new LineChannel(socket, signal), connectedAt })
      })
    })
  }

  /** The TLS socket, once the connection is encrypted: its certificate is the check's. */
  get tlsSocket(): TLSSocket | undefined {
    return 'encrypted' in this.socket ? (this.socket as TLSSocket) : undefined
  }

  /** The next line the server sends, without its CRLF. */
  readLine(): Promise<string> {
    const line = this.lines.shift()
    if (line !== undefined) return Promise.resolve(line)
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject }
    })
  }

  send(line: string): void {
    this.socket.write(`${line}\r\n`)
  }

  /**
   * Turns the connection into TLS after the server agreed to it. Lines the server sent before the
   * handshake would be read as if they came over TLS (the STARTTLS injection of CVE-2011-0411), so
   * any are an error.
   */
  upgrade(servername: string | undefined): Promise<void> {
    if (this.lines.length > 0 || this.buffered.length > 0) {
      return Promise.reject(new DialogueError('protocol_error', 'the server sent data before the TLS handshake'))
    }
    this.detach()
    const plain = this.socket
    return new Promise((resolve, reject) => {
      const secure = connectTls(tlsOptions(servername, { socket: plain }))
      secure.once('error', reject)
      secure.once('secureConnect', () => {
        secure.removeListener('error', reject)
        this.socket = secure
        this.attach()
        resolve()
      })
    })
  }

  /** Sends the protocol's goodbye without waiting for the answer, and closes. */
  close(goodbye?: string): void {
    if (this.closed) return
    this.closed = true
    this.signal.removeEventListener('abort', this.onAbort)
    this.detach()
    this.socket.on('error', () => {})
    if (goodbye && this.socket.writable) this.socket.end(`${goodbye}\r\n`)
    this.socket.destroySoon()
    setTimeout(() => this.socket.destroy(), 200).unref()
  }

  private attach() {
    this.decoder = new StringDecoder('utf8')
    this.socket.on('data', this.onData)
    this.socket.on('error', this.onError)
    this.socket.on('close', this.onClose)
  }

  private detach() {
    this.socket.removeListener('data', this.onData)
    this.socket.removeListener('error', this.onError)
    this.socket.removeListener('close', this.onClose)
  }

  private receive(text: string) {
    this.buffered += text
    let end = this.buffered.indexOf('\n')
    while (end !== -1) {
      this.firstLineAt ??= performance.now()
      this.lines.push(this.buffered.slice(0, end).replace(/\r$/, ''))
      this.buffered = this.buffered.slice(end + 1)
      end = this.buffered.indexOf('\n')
    }
    if (this.buffered.length > MAX_LINE_LENGTH) {
      this.fail(new DialogueError('protocol_error', `the server sent a line longer than ${MAX_LINE_LENGTH} characters`))
      this.socket.destroy()
      return
    }
    this.deliver()
  }

  private deliver() {
    const waiter = this.waiter
    if (!waiter) return
    const line = this.lines.shift()
    if (line !== undefined) {
      this.waiter = undefined
      waiter.resolve(line)
    } else if (this.failure) {
      this.waiter = undefined
      waiter.reject(this.failure)
    }
  }

  private fail(error: Error) {
    this.failure ??= error
    this.deliver()
  }
}

/** Verification failures are reported by the check, not fatal to the handshake. */
function tlsOptions<Extra extends object>(servername: string | undefined, extra: Extra) {
  return { ...extra, rejectUnauthorized: false, secureContext, ...(servername ? { servername } : {}) }
}
