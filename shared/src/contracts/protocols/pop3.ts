import { z } from 'zod'
import { defineProtocol } from './define.ts'
import { ignoreTlsErrors, mailPassword, mailProblems, mailTls, mailUsername } from './mail-fields.ts'

/** POP3S (RFC 8314); the plain port 110 upgrades with STLS. */
export const POP3_IMPLICIT_TLS_PORT = 995

/** A mailbox server's POP3 dialogue: greeting, TLS, optionally USER/PASS, then QUIT (README "POP3 checks"). */
export const pop3Protocol = defineProtocol({
  kind: 'pop3',
  label: 'POP3',
  description:
    'Reads the POP3 greeting, starts TLS (STLS) and optionally logs in with USER and PASS; up when every reply is +OK.',
  defaultPort: POP3_IMPLICIT_TLS_PORT,
  options: z.object({
    tls: mailTls.optional(),
    ignoreTlsErrors,
    username: mailUsername.optional(),
  }),
  secrets: z.object({ password: mailPassword }),
  problems: (config) => mailProblems(config, POP3_IMPLICIT_TLS_PORT, POP3_IMPLICIT_TLS_PORT),
})
