import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { resolveAllowedTarget } from '@guard/shared'
import nodemailer from 'nodemailer'
import { Webhook } from 'standardwebhooks'
import type { EmailBody } from './render.ts'

export interface SendOutcome {
  ok: boolean
  statusCode: number | null
  error: string | null
}

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }

/**
 * POSTs JSON to a receiver the SSRF guard vetted at send time (a name that now resolves into the
 * private network is refused), connecting to the vetted address; no redirects are followed.
 */
export async function postJson(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<SendOutcome> {
  const url = new URL(target)
  const signal = AbortSignal.timeout(options.timeoutMs)
  try {
    const vetted = await resolveAllowedTarget(url.hostname.replace(/^\[|\]$/g, ''), {
      allowPrivate: options.allowPrivate,
      signal,
    })
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest
    const statusCode = await new Promise<number>((resolve, reject) => {
      const outgoing = request(url, {
        method: 'POST',
        lookup: pinnedLookup(vetted.address, vetted.family),
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'GuardNotifications/0.1',
          ...headers,
        },
      })
      outgoing.on('response', (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', reject)
      })
      outgoing.on('error', reject)
      outgoing.end(body)
    })
    const ok = statusCode >= 200 && statusCode < 300
    return { ok, statusCode, error: ok ? null : `receiver answered ${statusCode}` }
  } catch (error) {
    return { ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error) }
  }
}

/** Standard Webhooks headers for one attempt: the id stays the same across retries, so receivers can dedupe. */
export function signWebhook(secret: string, messageId: string, body: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  }
}

export type Mailer = ReturnType<typeof nodemailer.createTransport>

export const createMailer = (smtpUrl: string): Mailer => nodemailer.createTransport(smtpUrl)

export async function sendEmail(
  mailer: Mailer,
  from: string,
  deliveryId: string,
  email: EmailBody,
): Promise<SendOutcome> {
  try {
    await mailer.sendMail({
      from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: `<${deliveryId}@guard.notifications>`,
    })
    return { ok: true, statusCode: 250, error: null }
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode
    return { ok: false, statusCode: code ?? null, error: error instanceof Error ? error.message : String(error) }
  }
}
