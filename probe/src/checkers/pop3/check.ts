import { POP3_IMPLICIT_TLS_PORT } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { DialogueError } from '../dialogue-error.ts'
import type { LineChannel } from '../mail/line-channel.ts'
import { type MailDialogue, quote, runMailCheck } from '../mail/run.ts'

/**
 * Written by hand over the shared line channel: there is no well-kept POP3 client for Node, and a
 * check needs four single-line commands (STLS, USER, PASS, QUIT).
 */

async function command(channel: LineChannel, text: string) {
  channel.send(text)
  const line = await channel.readLine()
  return { ok: line.startsWith('+OK'), line }
}

function pop3Dialogue(channel: LineChannel): MailDialogue {
  return {
    goodbye: 'QUIT',
    async greet() {
      const greeting = await channel.readLine()
      if (greeting.startsWith('+OK')) return true
      throw new DialogueError('protocol_error', `not a POP3 greeting: ${quote(greeting)}`)
    },
    async requestTls() {
      const { ok, line } = await command(channel, 'STLS')
      if (!ok) throw new DialogueError('protocol_error', `STLS was refused: ${quote(line)}`)
    },
    async afterTls() {},
    async login(username, password) {
      const user = await command(channel, `USER ${username}`)
      if (!user.ok) throw new DialogueError('auth_failed', `the server refused the user: ${quote(user.line)}`)
      const pass = await command(channel, `PASS ${password}`)
      if (!pass.ok) throw new DialogueError('auth_failed', `the server refused the credentials: ${quote(pass.line)}`)
    },
  }
}

/** Up when the greeting and every reply (STLS, and with a username USER and PASS) is +OK. */
export const pop3Checker: Checker<'pop3'> = {
  kind: 'pop3',
  check(target, context): Promise<CheckOutcome> {
    return runMailCheck(target, context, {
      defaultPort: POP3_IMPLICIT_TLS_PORT,
      implicitTlsPort: POP3_IMPLICIT_TLS_PORT,
      dialogue: pop3Dialogue,
    })
  },
}
