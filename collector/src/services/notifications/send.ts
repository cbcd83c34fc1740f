import nodemailer from 'nodemailer'
import type { DeliveryResult, OutgoingEmail } from './providers/provider.ts'

export type Mailer = ReturnType<typeof nodemailer.createTransport>

export const createMailer = (smtpUrl: string): Mailer => nodemailer.createTransport(smtpUrl)

/** Sends through the operator's SMTP server; the delivery id is the Message-ID, the same on every retry. */
export async function sendEmail(
  mailer: Mailer,
  from: string,
  deliveryId: string,
  email: OutgoingEmail,
): Promise<DeliveryResult> {
  try {
    await mailer.sendMail({
      from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      ...(email.headers ? { headers: email.headers } : {}),
      messageId: `<${deliveryId}@guard.notifications>`,
    })
    return { ok: true, statusCode: 250 }
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode
    const message = error instanceof Error ? error.message : String(error)
    // 5xx replies are the server refusing this message for good (no such mailbox, policy).
    return { ok: false, statusCode: code ?? null, error: message, ...(code && code >= 500 ? { permanent: true } : {}) }
  }
}
