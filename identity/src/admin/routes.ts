import type { GuardFastify, Sql } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { issueInvitation } from '../invitations/issue.ts'
import { issuedInvitation } from '../invitations/routes.ts'
import type { OAuthContext } from '../oauth/context.ts'
import { problemResponses } from '../routes/schemas.ts'
import { auditEntryView, auditQuery, listAudit } from '../services/audit/list.ts'
import { type Actor, type AuditEntry, recordAudit } from '../services/audit/record.ts'
import { createClient } from '../services/clients/create.ts'
import { deleteClient } from '../services/clients/delete.ts'
import { clientView, getClient, listClients } from '../services/clients/list.ts'
import { rotateClientSecret } from '../services/clients/rotate-secret.ts'
import { resetSecondFactors } from '../services/factors/reset.ts'
import { invitationInput } from '../services/invitations/create.ts'
import { rotateSigningKeys } from '../services/keys/rotate.ts'
import { addMembership, membershipInput } from '../services/memberships/add.ts'
import { changeMemberRole, roleChange } from '../services/memberships/change-role.ts'
import { removeMember } from '../services/memberships/remove.ts'
import { listMembers, membershipView } from '../services/memberships/view.ts'
import { MEMBERSHIP_ROLES } from '../services/organizations/add-member.ts'
import { createOrganization } from '../services/organizations/create.ts'
import { organizationRename, renameOrganization } from '../services/organizations/rename.ts'
import { setOrganizationPlan, setOrganizationPlanInput } from '../services/organizations/set-plan.ts'
import { getOrganization, listOrganizations, organizationView } from '../services/organizations/view.ts'
import { requireCatalogPlan } from '../services/plans/find.ts'
import { createUser } from '../services/users/create.ts'
import { updateUser, userUpdate } from '../services/users/update.ts'
import { getUser, listUsers, USER_ROLES, userView } from '../services/users/view.ts'
import { authenticateAdmin } from './authenticate.ts'

export const ADMIN_PREFIX = '/api/v1/admin'

declare module 'fastify' {
  interface FastifyRequest {
    adminActor?: Actor
  }
}

export interface AdminOptions {
  /**
   * The CLI builds the app in its own process over the store it holds locked and injects its
   * requests: those act as this local operator without a token. A listening app never sets it.
   */
  localOperator?: Omit<Actor, 'ip' | 'userAgent'>
  /** The plan organizations created without one get (GUARD_DEFAULT_PLAN, checked at start); null: none. */
  defaultPlan?: string | null
}

const planCaller = (actor: Actor) => ({
  kind:
    actor.type === 'user'
      ? ('user' as const)
      : actor.type === 'admin_token'
        ? ('admin_token' as const)
        : ('operator' as const),
  id: actor.id ?? actor.label,
})

const TAGS = ['admin']
const errors = problemResponses(400, 401, 403, 404, 409)
const security = [{ bearer: [] }]

const userCreate = z.strictObject({
  email: z.email(),
  password: z.string().min(12, 'must be at least 12 characters').max(1024),
  name: z.string().min(1).max(200),
  picture: z.url().optional(),
  role: z.enum(USER_ROLES).default('user').describe('platform role; admin may use this API'),
  organization: z.string().optional().describe('id or slug of an organization to add the user to'),
  membershipRole: z.enum(MEMBERSHIP_ROLES).default('member'),
})

const clientCreate = z.strictObject({
  name: z.string().min(1).max(200),
  redirect_uris: z.array(z.string()).min(1),
  post_logout_redirect_uris: z.array(z.string()).default([]),
  public: z.boolean().default(false),
  require_pkce: z.boolean().default(true),
  first_party: z.boolean().default(false),
  allowed_scopes: z
    .array(z.string())
    .optional()
    .describe('default openid email profile organizations read write; add admin explicitly'),
})

const idParam = z.object({ id: z.string().min(1) })
const orgParam = z.object({ organization: z.string().min(1).describe('organization id or slug') })
const memberParam = orgParam.extend({ userId: z.string().min(1) })

/**
 * Identity's admin API: users, organizations, memberships, OAuth clients, signing keys, and the
 * audit log every change here is written to (in the same transaction as the change).
 */
export async function adminRoutes(app: GuardFastify, ctx: OAuthContext, options: AdminOptions = {}): Promise<void> {
  await app.register(async (instance) => {
    const admin = instance.withTypeProvider<ZodTypeProvider>()
    admin.addHook('preHandler', async (request) => {
      request.adminActor = options.localOperator
        ? { ...options.localOperator, ip: undefined, userAgent: undefined }
        : await authenticateAdmin(ctx, request)
    })

    const audited = <T>(
      request: FastifyRequest,
      entry: (result: T) => AuditEntry,
      work: (tx: Sql) => Promise<T>,
    ): Promise<T> =>
      ctx.sql.transaction(async (tx: Sql) => {
        const result = await work(tx)
        await recordAudit(tx, request.adminActor as Actor, entry(result))
        return result
      })

    admin.get(
      `${ADMIN_PREFIX}/whoami`,
      {
        schema: {
          summary: 'Who the credential is',
          description:
            "The platform operator the Bearer credential stands for. Other Guard services ask it to let an operator into their own admin routes (the collector's dead letters) with the same credential.",
          tags: TAGS,
          security,
          response: {
            200: z.object({
              type: z.enum(['admin_token', 'user', 'local', 'system']),
              id: z.string().nullable(),
              label: z.string(),
            }),
            ...errors,
          },
        },
      },
      async (request) => {
        const actor = request.adminActor as Actor
        return { type: actor.type, id: actor.id ?? null, label: actor.label }
      },
    )

    // Users --------------------------------------------------------------------------------------
    admin.get(
      `${ADMIN_PREFIX}/users`,
      {
        schema: {
          summary: 'List users',
          tags: TAGS,
          security,
          querystring: z.object({ email: z.string().optional().describe('only the user with this email') }),
          response: { 200: z.object({ users: z.array(userView) }), ...errors },
        },
      },
      async (request) => ({ users: await listUsers(ctx.sql, { email: request.query.email }) }),
    )
    admin.post(
      `${ADMIN_PREFIX}/users`,
      {
        schema: {
          summary: 'Create a user',
          description: 'Optionally adds the user to an organization. The password is never returned.',
          tags: TAGS,
          security,
          body: userCreate,
          response: { 201: userView, ...errors },
        },
      },
      async (request, reply) => {
        const input = request.body
        const user = await audited(
          request,
          (created) => ({
            action: 'user.create',
            targetType: 'user',
            targetId: created.id,
            details: { email: input.email, role: input.role, organization: input.organization ?? null },
          }),
          async (tx: Sql) => {
            const created = await createUser(tx, input)
            if (input.organization) {
              await addMembership(tx, {
                organization: input.organization,
                member: { userId: created.id, role: input.membershipRole },
              })
            }
            return getUser(tx, created.id)
          },
        )
        return reply.status(201).send(user)
      },
    )
    admin.get(
      `${ADMIN_PREFIX}/users/:id`,
      {
        schema: {
          summary: 'Get a user',
          tags: TAGS,
          security,
          params: idParam,
          response: { 200: userView, ...errors },
        },
      },
      async (request) => getUser(ctx.sql, request.params.id),
    )
    admin.patch(
      `${ADMIN_PREFIX}/users/:id`,
      {
        schema: {
          summary: 'Update a user: name, role, password, disabled',
          description:
            'A new password or `disabled: true` ends every session and token family of the user. The password is never returned or logged.',
          tags: TAGS,
          security,
          params: idParam,
          body: userUpdate,
          response: { 200: userView, ...errors },
        },
      },
      async (request) => {
        const changes = request.body
        return audited(
          request,
          () => ({
            action: 'user.update',
            targetType: 'user',
            targetId: request.params.id,
            // Which fields changed, never the password itself.
            details: { ...changes, ...(changes.password ? { password: 'changed' } : {}) },
          }),
          (tx: Sql) => updateUser(tx, { id: request.params.id, changes }),
        )
      },
    )

    admin.delete(
      `${ADMIN_PREFIX}/users/:id/second-factors`,
      {
        schema: {
          summary: "Reset a user's second factors",
          description:
            'Removes their passkeys, authenticator app and recovery codes and ends their sessions (a user who lost their devices). Audited as `user.second_factors_reset`.',
          tags: TAGS,
          security,
          params: idParam,
          response: {
            200: z.object({ passkeys: z.number().int(), totp: z.boolean(), recoveryCodes: z.number().int() }),
            ...errors,
          },
        },
      },
      async (request) =>
        audited(
          request,
          (removed) => ({
            action: 'user.second_factors_reset',
            targetType: 'user',
            targetId: request.params.id,
            details: removed,
          }),
          (tx: Sql) => resetSecondFactors(tx, request.params.id),
        ),
    )

    // Organizations and memberships --------------------------------------------------------------
    admin.get(
      `${ADMIN_PREFIX}/organizations`,
      {
        schema: {
          summary: 'List organizations',
          tags: TAGS,
          security,
          response: { 200: z.object({ organizations: z.array(organizationView) }), ...errors },
        },
      },
      async () => ({ organizations: await listOrganizations(ctx.sql) }),
    )
    admin.post(
      `${ADMIN_PREFIX}/organizations`,
      {
        schema: {
          summary: 'Create an organization',
          tags: TAGS,
          security,
          body: z.strictObject({
            name: z.string().trim().min(1).max(200),
            slug: z.string(),
            plan: setOrganizationPlanInput.shape.plan
              .optional()
              .describe('catalog plan id, or null for no limits; default GUARD_DEFAULT_PLAN'),
          }),
          response: { 201: organizationView, ...errors },
        },
      },
      async (request, reply) => {
        const organization = await audited(
          request,
          (created) => ({
            action: 'organization.create',
            targetType: 'organization',
            targetId: created.id,
            details: { slug: created.slug, name: created.name, plan: created.plan },
          }),
          async (tx: Sql) => {
            const { plan: requested, ...names } = request.body
            const plan =
              requested === undefined
                ? (options.defaultPlan ?? null)
                : requested && (await requireCatalogPlan(tx, ctx.log, requested)).id
            return getOrganization(tx, (await createOrganization(tx, { ...names, plan })).id)
          },
        )
        return reply.status(201).send(organization)
      },
    )
    admin.get(
      `${ADMIN_PREFIX}/organizations/:organization`,
      {
        schema: {
          summary: 'Get an organization',
          tags: TAGS,
          security,
          params: orgParam,
          response: { 200: organizationView, ...errors },
        },
      },
      async (request) => getOrganization(ctx.sql, request.params.organization),
    )
    admin.patch(
      `${ADMIN_PREFIX}/organizations/:organization`,
      {
        schema: {
          summary: 'Rename an organization',
          tags: TAGS,
          security,
          params: orgParam,
          body: organizationRename,
          response: { 200: organizationView, ...errors },
        },
      },
      async (request) =>
        audited(
          request,
          (renamed) => ({
            action: 'organization.rename',
            targetType: 'organization',
            targetId: renamed.id,
            details: { name: renamed.name },
          }),
          (tx: Sql) => renameOrganization(tx, { organization: request.params.organization, changes: request.body }),
        ),
    )
    admin.put(
      `${ADMIN_PREFIX}/organizations/:organization/plan`,
      {
        schema: {
          summary: "Change an organization's plan",
          description:
            'A catalog plan id, or null for no limits. The collector enforces it within GUARD_PLAN_CACHE_SECONDS.',
          tags: TAGS,
          security,
          params: orgParam,
          body: setOrganizationPlanInput.pick({ plan: true }).strict(),
          response: { 200: organizationView, ...errors },
        },
      },
      async (request) =>
        audited(
          request,
          (changed) => ({
            action: 'organization.plan',
            targetType: 'organization',
            targetId: changed.id,
            details: { plan: changed.plan },
          }),
          async (tx: Sql) => {
            const changed = await setOrganizationPlan({
              ctx: { sql: tx, log: ctx.log },
              caller: planCaller(request.adminActor as Actor),
              input: { organization: request.params.organization, plan: request.body.plan },
            })
            return getOrganization(tx, changed.id)
          },
        ),
    )
    admin.get(
      `${ADMIN_PREFIX}/organizations/:organization/members`,
      {
        schema: {
          summary: 'List the members of an organization',
          tags: TAGS,
          security,
          params: orgParam,
          response: { 200: z.object({ members: z.array(membershipView) }), ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        return { members: await listMembers(ctx.sql, organization.id) }
      },
    )
    admin.post(
      `${ADMIN_PREFIX}/organizations/:organization/members`,
      {
        schema: {
          summary: 'Add a user to an organization',
          description: 'By userId or email, with a role owner, admin, member (default) or viewer.',
          tags: TAGS,
          security,
          params: orgParam,
          body: membershipInput,
          response: { 201: membershipView, ...errors },
        },
      },
      async (request, reply) => {
        const membership = await audited(
          request,
          (added) => ({
            action: 'membership.add',
            targetType: 'membership',
            targetId: added.id,
            details: { organizationId: added.organizationId, userId: added.userId, role: added.role },
          }),
          (tx: Sql) => addMembership(tx, { organization: request.params.organization, member: request.body }),
        )
        return reply.status(201).send(membership)
      },
    )
    admin.patch(
      `${ADMIN_PREFIX}/organizations/:organization/members/:userId`,
      {
        schema: {
          summary: "Change a member's role",
          description: 'An organization keeps at least one owner (409 otherwise).',
          tags: TAGS,
          security,
          params: memberParam,
          body: roleChange,
          response: { 200: membershipView, ...errors },
        },
      },
      async (request) =>
        audited(
          request,
          (changed) => ({
            action: 'membership.role',
            targetType: 'membership',
            targetId: changed.id,
            details: { organizationId: changed.organizationId, userId: changed.userId, role: changed.role },
          }),
          (tx: Sql) =>
            changeMemberRole(tx, {
              organization: request.params.organization,
              userId: request.params.userId,
              changes: request.body,
            }),
        ),
    )
    admin.delete(
      `${ADMIN_PREFIX}/organizations/:organization/members/:userId`,
      {
        schema: {
          summary: 'Remove a member from an organization',
          tags: TAGS,
          security,
          params: memberParam,
          response: { 200: membershipView, ...errors },
        },
      },
      async (request) =>
        audited(
          request,
          (removed) => ({
            action: 'membership.remove',
            targetType: 'membership',
            targetId: removed.id,
            details: { organizationId: removed.organizationId, userId: removed.userId },
          }),
          (tx: Sql) => removeMember(tx, { organization: request.params.organization, userId: request.params.userId }),
        ),
    )

    admin.post(
      `${ADMIN_PREFIX}/organizations/:organization/invitations`,
      {
        schema: {
          summary: 'Invite an e-mail address into an organization',
          description:
            'As POST /api/v1/organizations/{organization}/invitations, for the operator. The link is e-mailed when GUARD_SMTP_URL is set, otherwise it is in this answer only.',
          tags: TAGS,
          security,
          params: orgParam,
          body: invitationInput,
          response: { 201: issuedInvitation, ...errors },
        },
      },
      async (request, reply) => {
        const issued = await issueInvitation(ctx, {
          organization: request.params.organization,
          actor: request.adminActor as Actor,
          inviterRole: undefined,
          body: request.body,
        })
        return reply.status(201).send(issued)
      },
    )

    // OAuth clients ------------------------------------------------------------------------------
    admin.get(
      `${ADMIN_PREFIX}/clients`,
      {
        schema: {
          summary: 'List OAuth clients',
          tags: TAGS,
          security,
          response: { 200: z.object({ clients: z.array(clientView) }), ...errors },
        },
      },
      async () => ({ clients: await listClients(ctx.sql) }),
    )
    admin.post(
      `${ADMIN_PREFIX}/clients`,
      {
        schema: {
          summary: 'Register an OAuth client',
          description: 'A confidential client’s `client_secret` is in this answer only; just its hash is kept.',
          tags: TAGS,
          security,
          body: clientCreate,
          response: { 201: clientView.extend({ client_secret: z.string().optional() }), ...errors },
        },
      },
      async (request, reply) => {
        const body = request.body
        const client = await audited(
          request,
          (created) => ({
            action: 'client.create',
            targetType: 'client',
            targetId: created.client_id,
            details: { name: created.name, public: created.public, redirect_uris: created.redirect_uris },
          }),
          async (tx: Sql) => {
            const created = await createClient(tx, {
              name: body.name,
              redirectUris: body.redirect_uris,
              postLogoutRedirectUris: body.post_logout_redirect_uris,
              isPublic: body.public,
              requirePkce: body.require_pkce,
              firstParty: body.first_party,
              allowedScopes: body.allowed_scopes,
            })
            const view = await getClient(tx, created.client_id)
            return { ...view, ...(created.client_secret ? { client_secret: created.client_secret } : {}) }
          },
        )
        return reply.status(201).send(client)
      },
    )
    admin.get(
      `${ADMIN_PREFIX}/clients/:id`,
      {
        schema: {
          summary: 'Get an OAuth client',
          tags: TAGS,
          security,
          params: idParam,
          response: { 200: clientView, ...errors },
        },
      },
      async (request) => getClient(ctx.sql, request.params.id),
    )
    admin.post(
      `${ADMIN_PREFIX}/clients/:id/secret`,
      {
        schema: {
          summary: 'Rotate a confidential client’s secret',
          description: 'The new secret is in this answer only; the old one stops working at once.',
          tags: TAGS,
          security,
          params: idParam,
          response: { 200: clientView.extend({ client_secret: z.string() }), ...errors },
        },
      },
      async (request) =>
        audited(
          request,
          () => ({ action: 'client.rotate-secret', targetType: 'client', targetId: request.params.id }),
          (tx: Sql) => rotateClientSecret(tx, request.params.id),
        ),
    )
    admin.delete(
      `${ADMIN_PREFIX}/clients/:id`,
      {
        schema: {
          summary: 'Delete an OAuth client',
          description: 'Its codes, consents and token families go with it.',
          tags: TAGS,
          security,
          params: idParam,
          response: { 200: clientView, ...errors },
        },
      },
      async (request) =>
        audited(
          request,
          (deleted) => ({
            action: 'client.delete',
            targetType: 'client',
            targetId: deleted.client_id,
            details: { name: deleted.name },
          }),
          (tx: Sql) => deleteClient(tx, request.params.id),
        ),
    )

    // Signing keys and the audit log -------------------------------------------------------------
    admin.post(
      `${ADMIN_PREFIX}/keys/rotate`,
      {
        schema: {
          summary: 'Rotate the signing key',
          description:
            'New tokens are signed with a new key; the previous one stays in the JWKS so its tokens verify until they expire.',
          tags: TAGS,
          security,
          response: {
            200: z.object({ kid: z.string(), previousKid: z.string().nullable(), retiredKid: z.string().nullable() }),
            ...errors,
          },
        },
      },
      async (request) =>
        audited(
          request,
          (rotation) => ({
            action: 'keys.rotate',
            targetType: 'signing_key',
            targetId: rotation.kid,
            details: { previousKid: rotation.previousKid, retiredKid: rotation.retiredKid },
          }),
          (tx: Sql) => rotateSigningKeys(tx, ctx.secrets.keyEncryption),
        ),
    )
    admin.get(
      `${ADMIN_PREFIX}/audit`,
      {
        schema: {
          summary: 'The audit log, newest first',
          description: 'Every change through this API, and sign-in lockouts: who, what, when, from where.',
          tags: TAGS,
          security,
          querystring: auditQuery,
          response: { 200: z.object({ entries: z.array(auditEntryView) }), ...errors },
        },
      },
      async (request) => ({ entries: await listAudit(ctx.sql, request.query) }),
    )
  })
}
