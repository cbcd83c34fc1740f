import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { authenticateAdmin } from '../admin/authenticate.ts'
import type { OAuthContext } from '../oauth/context.ts'
import { OAuthError } from '../oauth/oauth-error.ts'
import { ADMIN_SCOPE } from '../oauth/scopes.ts'
import { problemResponses } from '../routes/schemas.ts'
import { ADMIN_TOKEN_PREFIX } from '../services/admin-tokens/ensure.ts'
import type { Actor } from '../services/audit/record.ts'
import { recordAudit } from '../services/audit/record.ts'
import { findClient } from '../services/clients/client.ts'
import { invitationInput } from '../services/invitations/create.ts'
import { invitationView, listInvitations, revokeInvitation } from '../services/invitations/view.ts'
import { getOrganization } from '../services/organizations/view.ts'
import { verifyAccessToken } from '../services/tokens/verify-access.ts'
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
  const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  if (!token) throw new GuardError('UNAUTHORIZED', 'an access token is required (Authorization: Bearer)')
  if (token.startsWith(ADMIN_TOKEN_PREFIX)) return { actor: await authenticateAdmin(ctx, request), role: undefined }
  let verified: Awaited<ReturnType<typeof verifyAccessToken>>
  try {
    verified = await verifyAccessToken(ctx.sql, ctx, token)
  } catch (error) {
    if (error instanceof OAuthError) throw new GuardError('UNAUTHORIZED', error.description)
    throw error
  }
  const { rows } = await ctx.sql.query<{ email: string; user_role: string; member_role: string | null }>(
    `SELECT u.email, u.role AS user_role, m.role AS member_role FROM identity.users u
       LEFT JOIN identity.memberships m ON m.user_id = u.id AND m.organization_id = $2
      WHERE u.id = $1 AND u.disabled_at IS NULL`,
    [verified.userId, organizationId],
  )
  const user = rows[0]
  if (!user) throw new GuardError('UNAUTHORIZED', 'the user of this token is disabled or deleted')
  const actor: Actor = {
    type: 'user',
    id: verified.userId,
    label: user.email,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
  }
  const firstParty = (await findClient(ctx.sql, verified.clientId))?.firstParty === true
  if (firstParty && (user.member_role === 'owner' || user.member_role === 'admin')) {
    return { actor, role: user.member_role }
  }
  if (user.user_role === 'admin' && verified.scopes.includes(ADMIN_SCOPE)) return { actor, role: undefined }
  if (!firstParty) {
    throw new GuardError('FORBIDDEN', "invitations are managed from Guard's own applications, not third-party ones")
  }
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
