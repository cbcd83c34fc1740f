import type { Sql } from '@guard/shared'
import type { z } from 'zod'
import type { OAuthContext } from '../oauth/context.ts'
import { type Actor, recordAudit } from '../services/audit/record.ts'
import { createInvitation, type invitationInput } from '../services/invitations/create.ts'
import { sendInvitationEmail } from '../services/invitations/send.ts'
import type { InvitationView } from '../services/invitations/view.ts'
import { getOrganization } from '../services/organizations/view.ts'

export interface IssuedInvitation {
  invitation: InvitationView
  /** Only when no SMTP server is configured: the one time the link is shown. */
  link?: string
  emailed: boolean
}

/**
 * Creates the invitation and delivers its link: by e-mail when SMTP is configured, otherwise in
 * the answer. The row is committed only once the e-mail was accepted by the server, so a failed
 * delivery leaves no invitation nobody can use.
 */
export async function issueInvitation(
  ctx: OAuthContext,
  input: { organization: string; actor: Actor; inviterRole: string | undefined; body: z.input<typeof invitationInput> },
): Promise<IssuedInvitation> {
  return ctx.sql.transaction(async (tx: Sql) => {
    const organization = await getOrganization(tx, input.organization)
    const { invitation, link } = await createInvitation(tx, {
      organizationId: organization.id,
      invitedBy: input.actor.label,
      inviterRole: input.inviterRole,
      issuer: ctx.issuer,
      invitation: input.body,
    })
    await recordAudit(tx, input.actor, {
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: invitation.id,
      details: { organizationId: organization.id, email: invitation.email, role: invitation.role },
    })
    if (!ctx.mailer) return { invitation, link, emailed: false }
    await sendInvitationEmail(ctx.mailer, {
      to: invitation.email,
      organizationName: organization.name,
      role: invitation.role,
      link,
      expiresAt: invitation.expiresAt,
    })
    return { invitation, emailed: true }
  })
}
