import { type MonitorTarget, SMTP_IMPLICIT_TLS_PORT, SMTP_PORT } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { DialogueError } from '../dialogue-error.ts'
import type { LineChannel } from '../mail/line-channel.ts'
import { type MailDialogue, quote, runMailCheck } from '../mail/run.ts'

/**
 * The SMTP dialogue is written here over the shared line channel rather than with nodemailer's
 * SMTPConnection: that one rejects any banner but 220 itself (a check may expect another code),
 * keeps the banner text to itself, and exposes the TLS socket (for the certificate) only as a
 * private field.
 */

interface SmtpReply {
  code: number
  /** The reply's lines without their code, for EHLO's capabilities. */
  lines: string[]
  text: string
}

/** Enough for any EHLO capability list; more is a server talking without end. */
const MAX_REPLY_LINES = 100

async function readReply(channel: LineChannel): Promise<SmtpReply> {
  const lines: string[] = []
  for (;;) {
    const line = await channel.readLine()
    const match = /^([2-5]\d\d)([ -]|$)(.*)$/.exec(line)
    if (!match) throw new DialogueError('protocol_error', `not an SMTP reply: ${quote(line)}`)
    lines.push(match[3] ?? '')
    if (match[2] !== '-') return { code: Number(match[1]), lines, text: line }
    if (lines.length >= MAX_REPLY_LINES) {
      throw new DialogueError('protocol_error', `an SMTP reply longer than ${MAX_REPLY_LINES} lines`)
    }
  }
}

async function command(channel: LineChannel, line: string): Promise<SmtpReply> {
  channel.send(line)
  return readReply(channel)
}

type SmtpOptions = Pick<Extract<MonitorTarget, { kind: 'smtp' }>, 'expectedBannerCode' | 'bannerKeyword' | 'ehloName'>

function smtpDialogue(channel: LineChannel, options: SmtpOptions): MailDialogue {
  const expected = options.expectedBannerCode ?? 220
  let capabilities = new Map<string, string>()
  let statusCode: number | undefined
  const ehlo = async () => {
    const reply = await command(channel, `EHLO ${options.ehloName ?? 'guard-probe'}`)
    if (reply.code !== 250) throw new DialogueError('protocol_error', `EHLO was refused: ${quote(reply.text)}`)
    capabilities = new Map(
      reply.lines.slice(1).map((line) => {
        const [keyword = '', ...rest] = line.trim().split(/\s+/)
        return [keyword.toUpperCase(), rest.join(' ').toUpperCase()]
      }),
    )
  }
  return {
    goodbye: 'QUIT',
    get statusCode() {
      return statusCode
    },
    async greet() {
      const banner = await readReply(channel)
      statusCode = banner.code
      if (banner.code !== expected) {
        throw new DialogueError(
          'status_mismatch',
          `the banner's code is ${banner.code}, expected ${expected}: ${quote(banner.text)}`,
        )
      }
      if (options.bannerKeyword !== undefined && !banner.lines.join('\n').includes(options.bannerKeyword)) {
        throw new DialogueError(
          'keyword_missing',
          `the banner ${quote(banner.text)} does not contain ${quote(options.bannerKeyword)}`,
        )
      }
      // A server that is not ready (an expected 421 or 554) takes no EHLO; its banner was the check.
      if (banner.code !== 220) return false
      await ehlo()
      return true
    },
    async requestTls() {
      if (!capabilities.has('STARTTLS')) throw new DialogueError('protocol_error', 'the server does not offer STARTTLS')
      const reply = await command(channel, 'STARTTLS')
      if (reply.code !== 220) throw new DialogueError('protocol_error', `STARTTLS was refused: ${quote(reply.text)}`)
    },
    afterTls: ehlo,
    async login(username, password) {
      const mechanisms = (capabilities.get('AUTH') ?? '').split(' ')
      const base64 = (text: string) => Buffer.from(text).toString('base64')
      let reply: SmtpReply
      if (mechanisms.includes('PLAIN')) {
        reply = await command(channel, `AUTH PLAIN ${base64(`\u0000${username}\u0000${password}`)}`)
      } else if (mechanisms.includes('LOGIN')) {
        reply = await command(channel, 'AUTH LOGIN')
        if (reply.code === 334) reply = await command(channel, base64(username))
        if (reply.code === 334) reply = await command(channel, base64(password))
      } else {
        throw new DialogueError('protocol_error', 'the server offers neither AUTH PLAIN nor AUTH LOGIN')
      }
      if (reply.code === 235) return
      if (reply.code === 535)
        throw new DialogueError('auth_failed', `the server refused the credentials: ${quote(reply.text)}`)
      throw new DialogueError('protocol_error', `AUTH failed: ${quote(reply.text)}`)
    },
  }
}

/** Up when the banner has the expected code and EHLO, TLS and (with a username) AUTH succeed. */
export const smtpChecker: Checker<'smtp'> = {
  kind: 'smtp',
  check(target, context): Promise<CheckOutcome> {
    return runMailCheck(target, context, {
      defaultPort: SMTP_PORT,
      implicitTlsPort: SMTP_IMPLICIT_TLS_PORT,
      dialogue: (channel) => smtpDialogue(channel, target),
    })
  },
}
