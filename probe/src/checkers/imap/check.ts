import { IMAP_IMPLICIT_TLS_PORT } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { DialogueError } from '../dialogue-error.ts'
import type { LineChannel } from '../mail/line-channel.ts'
import { type MailDialogue, quote, runMailCheck } from '../mail/run.ts'

/**
 * The few tagged commands a check needs (STARTTLS, LOGIN, LOGOUT) are written here over the shared
 * line channel: imapflow logs in as it connects and keeps the greeting and the TLS socket to itself.
 */

/** Untagged lines a server may send before the tagged answer (capabilities, alerts). */
const MAX_UNTAGGED_LINES = 1000

/** An IMAP quoted string (RFC 9051): backslash and double quote escaped. */
const quoted = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`

function imapDialogue(channel: LineChannel): MailDialogue {
  let sequence = 0
  const command = async (text: string) => {
    sequence += 1
    const tag = `g${sequence}`
    channel.send(`${tag} ${text}`)
    for (let read = 0; read < MAX_UNTAGGED_LINES; read += 1) {
      const line = await channel.readLine()
      if (!line.startsWith(`${tag} `)) continue
      const status = /^\S+ (OK|NO|BAD)\b/i.exec(line)?.[1]?.toUpperCase()
      if (!status) throw new DialogueError('protocol_error', `not an IMAP status: ${quote(line)}`)
      return { status, line }
    }
    throw new DialogueError('protocol_error', `no tagged answer within ${MAX_UNTAGGED_LINES} lines`)
  }
  return {
    goodbye: `g0 LOGOUT`,
    async greet() {
      const greeting = await channel.readLine()
      if (/^\* (OK|PREAUTH)\b/i.test(greeting)) return true
      if (/^\* BYE\b/i.test(greeting))
        throw new DialogueError('protocol_error', `the server refused the session: ${quote(greeting)}`)
      throw new DialogueError('protocol_error', `not an IMAP greeting: ${quote(greeting)}`)
    },
    async requestTls() {
      const { status, line } = await command('STARTTLS')
      if (status !== 'OK') throw new DialogueError('protocol_error', `STARTTLS was refused: ${quote(line)}`)
    },
    async afterTls() {},
    async login(username, password) {
      const { status, line } = await command(`LOGIN ${quoted(username)} ${quoted(password)}`)
      if (status === 'OK') return
      if (status === 'NO') throw new DialogueError('auth_failed', `the server refused the credentials: ${quote(line)}`)
      throw new DialogueError('protocol_error', `LOGIN failed: ${quote(line)}`)
    },
  }
}

/** Up when the greeting is OK (or PREAUTH) and TLS and (with a username) LOGIN succeed. */
export const imapChecker: Checker<'imap'> = {
  kind: 'imap',
  check(target, context): Promise<CheckOutcome> {
    return runMailCheck(target, context, {
      defaultPort: IMAP_IMPLICIT_TLS_PORT,
      implicitTlsPort: IMAP_IMPLICIT_TLS_PORT,
      dialogue: imapDialogue,
    })
  },
}
