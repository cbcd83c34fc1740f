import { isIP } from 'node:net'
import { type CheckResult, effectiveMailTls, type MonitorTarget, truncateText } from '@guard/shared'
import type { CheckContext, CheckOutcome } from '../../checker.ts'
import { certificateOf, certificateProblem } from '../certificate.ts'
import { DialogueError } from '../dialogue-error.ts'
import { elapsedSince, failed, roundMs, tlsErrorKind } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'
import { LineChannel } from './line-channel.ts'

/** One protocol's side of the dialogue; the runner connects, upgrades, verifies and measures. */
export interface MailDialogue {
  /** Reads the greeting (SMTP: and says EHLO); false when the check ends here as up. */
  greet(): Promise<boolean>
  /** Asks for TLS on the plain connection; resolves once the server agreed. */
  requestTls(): Promise<void>
  /** What follows the upgrade (SMTP: EHLO again, as the capabilities may change). */
  afterTls(): Promise<void>
  login(username: string, password: string): Promise<void>
  /** The command that ends the session politely. */
  readonly goodbye: string
  /** The reply code the outcome reports (SMTP's banner code). */
  readonly statusCode?: number | undefined
}

/** What the runner reads of an SMTP, IMAP or POP3 target; the fields they share. */
type MailTarget = Extract<MonitorTarget, { kind: 'smtp' | 'imap' | 'pop3' }>

export interface MailProtocol {
  defaultPort: number
  implicitTlsPort: number
  dialogue(channel: LineChannel): MailDialogue
}

/** A reply quoted in an error text: short, and on one line. */
export const quote = (reply: string) => JSON.stringify(truncateText(reply, 200))

/** A server echoing what it was sent must not put the password into the result. */
function redact(text: string, secrets: string[]): string {
  return secrets.reduce((redacted, secret) => redacted.replaceAll(secret, '***'), text)
}

function secretForms(username: string | undefined, password: string | undefined): string[] {
  if (!password) return []
  const base64 = (text: string) => Buffer.from(text).toString('base64')
  return [password, base64(password), base64(`\u0000${username ?? ''}\u0000${password}`)]
}

/**
 * Connects (TLS from the first byte, or after STARTTLS), greets, verifies the certificate before
 * any credential leaves the probe, logs in when a username is set, and says goodbye.
 */
export async function runMailCheck(
  target: MailTarget,
  context: CheckContext,
  protocol: MailProtocol,
): Promise<CheckOutcome> {
  const started = performance.now()
  const tls = effectiveMailTls(target, protocol.defaultPort, protocol.implicitTlsPort)
  const password = target.secrets?.password
  const hidden = secretForms(target.username, password)
  const phases: NonNullable<CheckResult['phases']> = {}
  let certificate: CheckResult['certificate']
  let address: string | undefined
  let channel: LineChannel | undefined
  let dialogue: MailDialogue | undefined
  const measured = () => ({
    responseTimeMs: elapsedSince(started),
    phases,
    ...(address ? { address } : {}),
    ...(certificate ? { certificate } : {}),
    ...(dialogue?.statusCode !== undefined ? { statusCode: dialogue.statusCode } : {}),
  })
  const down = (errorKind: CheckResult['errorKind'], error: string): CheckOutcome => ({
    status: 'down',
    ...measured(),
    error: truncateText(redact(error, hidden), 2000),
    errorKind,
  })
  try {
    const vetted = await vetTarget(target.host, context)
    address = vetted.address
    phases.dnsMs = roundMs(vetted.lookupMs)
    const servername = isIP(vetted.hostname) === 0 ? vetted.hostname : undefined
    const connecting = performance.now()
    const opened = await LineChannel.open({
      address: vetted.address,
      port: target.port ?? protocol.defaultPort,
      servername,
      tls: tls === 'implicit',
      signal: context.signal,
    })
    channel = opened.channel
    phases.connectMs = roundMs(opened.connectedAt - connecting)
    if (tls === 'implicit') phases.tlsMs = elapsedSince(opened.connectedAt)
    const greetingFrom = performance.now()
    dialogue = protocol.dialogue(channel)
    const goOn = await dialogue.greet()
    phases.firstByteMs = roundMs((channel.firstLineAt ?? performance.now()) - greetingFrom)
    if (goOn && tls === 'starttls') {
      await dialogue.requestTls()
      const upgrading = performance.now()
      await channel.upgrade(servername)
      phases.tlsMs = elapsedSince(upgrading)
      await dialogue.afterTls()
    }
    const secured = channel.tlsSocket
    if (secured) {
      certificate = certificateOf(secured)
      const problem = certificate ? certificateProblem(secured) : 'the server sent no certificate'
      if (problem && !target.ignoreTlsErrors) return down(tlsErrorKind(problem), problem)
    }
    if (goOn && target.username !== undefined) {
      if (!password) return down('credentials_unavailable', 'the monitor has a username but no password')
      await dialogue.login(target.username, password)
    }
    channel.close(dialogue.goodbye)
    return { status: 'up', ...measured() }
  } catch (error) {
    if (error instanceof DialogueError && !context.signal.aborted) return down(error.kind, error.message)
    const outcome = failed(error, context, started, measured())
    return { ...outcome, error: redact(outcome.error, hidden) }
  } finally {
    channel?.close()
  }
}
