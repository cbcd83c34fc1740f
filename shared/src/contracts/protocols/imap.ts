import { z } from 'zod'
import { defineProtocol } from './define.ts'
import { ignoreTlsErrors, mailPassword, mailProblems, mailTls, mailUsername } from './mail-fields.ts'

/** IMAPS (RFC 8314); the plain port 143 upgrades with STARTTLS. */
export const IMAP_IMPLICIT_TLS_PORT = 993

/** A mailbox server's IMAP dialogue: greeting, TLS, optionally LOGIN, then LOGOUT (README "IMAP checks"). */
export const imapProtocol = defineProtocol({
  kind: 'imap',
  label: 'IMAP',
  description:
    'Reads the IMAP greeting, starts TLS and optionally logs in; up when the greeting is OK (or PREAUTH) and every step succeeds.',
  defaultPort: IMAP_IMPLICIT_TLS_PORT,
  options: z.object({
    tls: mailTls.optional(),
    ignoreTlsErrors,
    username: mailUsername.optional(),
  }),
  secrets: z.object({ password: mailPassword }),
  problems: (config) => mailProblems(config, IMAP_IMPLICIT_TLS_PORT, IMAP_IMPLICIT_TLS_PORT),
})
