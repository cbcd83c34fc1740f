import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OAuthContext } from '../oauth/context.ts'
import { organizationCaller } from '../organizations/caller.ts'
import { problemResponses } from '../routes/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { invitationInput } from '../services/invitations/create.ts'
import { invitationView, listInvitations, revokeInvitation } from '../services/invitations/view.ts'
import { getOrganization } from '../services/organizations/view.ts'
import { issueInvitation } from './issue.ts'

export const issuedInvitation = z
  .object({
    invitation: invitationView,
    link: z.url().optional().describe('only when no SMTP server is configured: shown this once'),
    emailed: z.boolean(),
  })
  .meta({ id: 'IssuedInvitation' })

const orgParam = z.object({ organization: z.string().min(1).describe('organization id or slug') })
const errors = problemResponses(400, 401, 403, 404, 409)
const security = [{ bearer: [] }]

/**
 * Who may invite into an organization: its owners and admins (by an access token of a first-party
 * application: an invitation grants membership, a power no scope gives a third-party one), and the
 * platform's administrators (admin token, or an admin user's token with the admin scope).
 */
async function inviter(ctx: OAuthContext, request: FastifyRequest, organizationId: string) {
  const caller = await organizationCaller(ctx, request, organizationId)
  if (caller.platformAdmin) return { actor: caller.actor, role: undefined }
  if (!caller.firstParty) {
    throw new GuardError('FORBIDDEN', "invitations are managed from Guard's own applications, not third-party ones")
  }
  if (caller.role === 'owner' || caller.role === 'admin') return { actor: caller.actor, role: caller.role }
  throw new GuardError('FORBIDDEN', 'only owners and admins of the organization may manage its invitations')
}

export async function invitationRoutes(app: GuardFastify, ctx: OAuthContext): Promise<void> {
  await app.register(async (instance) => {
    const routes = instance.withTypeProvider<ZodTypeProvider>()
    const base = '/api/v1/organizations/:organization/invitations'
    routes.post(
      base,
      {
        schema: {
          summary: 'Invite an e-mail address into an organization',
          description:
            'Owners and admins of the organization (only an owner may invite an owner). The single-use link expires after 7 days; it is e-mailed when GUARD_SMTP_URL is set, otherwise it is in this answer only.',
          tags: ['account'],
          security,
          params: orgParam,
          body: invitationInput,
          response: { 201: issuedInvitation, ...errors, 503: problemResponses(503)[503] },
        },
      },
      async (request, reply) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const { actor, role } = await inviter(ctx, request, organization.id)
        const issued = await issueInvitation(ctx, {
          organization: organization.id,
          actor,
          inviterRole: role,
          body: request.body,
        }).catch((error: unknown) => {
          if (error instanceof GuardError) throw error
          request.log.error({ err: error }, 'invitation e-mail failed')
          throw new GuardError('SERVICE_UNAVAILABLE', 'the invitation e-mail could not be sent; nothing was saved', {
            hint: 'Check GUARD_SMTP_URL and the mail server, then invite again',
          })
        })
        return reply.status(201).send(issued)
      },
    )
    routes.get(
      base,
      {
        schema: {
          summary: "List an organization's invitations",
          tags: ['account'],
          security,
          params: orgParam,
          response: { 200: z.object({ invitations: z.array(invitationView) }), ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        await inviter(ctx, request, organization.id)
        return { invitations: await listInvitations(ctx.sql, organization.id) }
      },
    )
    routes.delete(
      `${base}/:id`,
      {
        schema: {
          summary: 'Revoke a pending invitation',
          tags: ['account'],
          security,
          params: orgParam.extend({ id: z.string().min(1) }),
          response: { 200: invitationView, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const { actor } = await inviter(ctx, request, organization.id)
        return ctx.sql.transaction(async (tx) => {
          const revoked = await revokeInvitation(tx, { organizationId: organization.id, id: request.params.id })
          await recordAudit(tx, actor, { action: 'invitation.revoke', targetType: 'invitation', targetId: revoked.id })
          return revoked
        })
      },
    )
  })
}
