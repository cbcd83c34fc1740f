import type { Transporter } from 'nodemailer'

export interface Mailer {
  from: string
  transport: Transporter
}

/** The invitation e-mail: plain text, the link on its own line. */
export async function sendInvitationEmail(
  mailer: Mailer,
  input: { to: string; organizationName: string; role: string; link: string; expiresAt: string },
): Promise<void> {
  await mailer.transport.sendMail({
    from: mailer.from,
    to: input.to,
    subject: `You are invited to ${input.organizationName} on Guard`,
    text: `You are invited to join ${input.organizationName} on Guard as ${input.role}.

Open this link to accept (it works once, until ${input.expiresAt}):

${input.link}

If you did not expect this, ignore this message.`,
  })
}
