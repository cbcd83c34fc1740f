import { z } from 'zod'
import { defineProtocol } from './define.ts'
import { ignoreTlsErrors, mailPassword, mailProblems, mailTls, mailUsername } from './mail-fields.ts'

export const SMTP_PORT = 25
/** SMTPS (RFC 8314): TLS from the first byte. */
export const SMTP_IMPLICIT_TLS_PORT = 465

/** A mail server's SMTP dialogue: banner, EHLO, TLS, optionally AUTH, then QUIT (README "SMTP checks"). */
export const smtpProtocol = defineProtocol({
  kind: 'smtp',
  label: 'SMTP',
  description:
    'Reads the SMTP banner, says EHLO, starts TLS and optionally logs in; up when the banner has the expected code and every step succeeds. Never sends mail.',
  defaultPort: SMTP_PORT,
  options: z.object({
    tls: mailTls.optional(),
    ignoreTlsErrors,
    expectedBannerCode: z.number().int().min(200).max(599).optional().meta({
      description: 'The reply code the banner must carry. Default: 220 (service ready).',
    }),
    bannerKeyword: z.string().min(1).max(200).optional().meta({
      description: 'Text the banner must contain (case-sensitive), such as the server’s name.',
    }),
    ehloName: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/, 'must be a hostname or [address]')
      .optional()
      .meta({ description: 'The name the probe gives in EHLO. Default: guard-probe.' }),
    username: mailUsername.optional(),
  }),
  secrets: z.object({ password: mailPassword }),
  problems: (config) => mailProblems(config, SMTP_PORT, SMTP_IMPLICIT_TLS_PORT),
})
