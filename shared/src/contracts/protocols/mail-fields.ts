import { z } from 'zod'

/** Options the SMTP, IMAP and POP3 checks share: how TLS starts, and the account to log in with. */
export const mailTls = z.enum(['starttls', 'implicit', 'none']).meta({
  description:
    'starttls: upgrade the plain connection (a server that does not offer it is down); implicit: TLS from the first byte; none: plain text only. Default: implicit on the protocol’s TLS port, starttls on any other.',
})

export const ignoreTlsErrors = z.boolean().optional().meta({
  description:
    'Up even when the certificate does not verify (self-signed, expired, wrong name). It is still reported. Default: false, and a login is never attempted over an unverified certificate.',
})

/** Printable characters only: a CR or LF would end the command line and start another one. */
const printable = /^\P{Cc}+$/u

export const mailUsername = z.string().min(1).max(255).regex(printable, 'must not contain control characters').meta({
  description: 'Logs in with this account (and the password secret) after TLS; without it the check does not log in.',
})

export const mailPassword = z
  .string()
  .min(1)
  .max(1000)
  .regex(printable, 'must not contain control characters')
  .meta({ description: 'The account’s password. Write-only.' })

interface MailConfig {
  port?: number | undefined
  tls?: z.infer<typeof mailTls> | undefined
  username?: string | undefined
}

/** The TLS mode a check uses when none is given: implicit on the protocol’s TLS port. */
export const effectiveMailTls = (config: MailConfig, defaultPort: number, implicitTlsPort: number) =>
  config.tls ?? ((config.port ?? defaultPort) === implicitTlsPort ? 'implicit' : 'starttls')

/** Rules between the mail options: no password in clear text, no STARTTLS on an implicit-TLS port. */
export function mailProblems(config: MailConfig, defaultPort: number, implicitTlsPort: number) {
  const problems: Array<[string[], string]> = []
  const tls = effectiveMailTls(config, defaultPort, implicitTlsPort)
  if (config.username !== undefined && tls === 'none') {
    problems.push([['username'], 'a login is sent only over TLS: set tls to starttls or implicit'])
  }
  if (config.tls === 'starttls' && (config.port ?? defaultPort) === implicitTlsPort) {
    problems.push([['tls'], `port ${implicitTlsPort} speaks TLS from the first byte: use implicit`])
  }
  return problems
}
