import type { GuardFastify, Sql } from '@guard/shared'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OAuthContext } from '../oauth/context.ts'
import { problemResponses } from '../routes/schemas.ts'
import { type Actor, type AuditEntry, recordAudit } from '../services/audit/record.ts'
import { changeMemberRole, roleChange } from '../services/memberships/change-role.ts'
import { assertMayManageMember, assertMayRead, assertMayRename } from '../services/memberships/policy.ts'
import { removeMember } from '../services/memberships/remove.ts'
import { getMember, listMembers, type MembershipView, membershipView } from '../services/memberships/view.ts'
import { MEMBERSHIP_ROLES } from '../services/organizations/add-member.ts'
import { organizationRename, renameOrganization } from '../services/organizations/rename.ts'
import { getOrganization, type OrganizationView, organizationView } from '../services/organizations/view.ts'
import { organizationCaller } from './caller.ts'

const TAGS = ['account']
const security = [{ bearer: [] }]
const errors = problemResponses(400, 401, 403, 404, 409)
const orgParam = z.object({ organization: z.string().min(1).describe('organization id or slug') })
const memberParam = orgParam.extend({ userId: z.string().min(1) })

const myOrganization = organizationView
  .extend({
    myRole: z
      .enum(MEMBERSHIP_ROLES)
      .nullable()
      .describe("the caller's role in it now; null for a platform administrator who is no member"),
  })
  .meta({ id: 'MyOrganization' })

/**
 * An organization as its own members see and manage it, with a user's access token of one of
 * Guard's own applications (the console, through the collector): any member reads it and its
 * members, owners and admins change roles and remove members (admins not owners'), owners rename
 * it. The admin API does the same for the operator; changes go to the same audit log.
 */
export async function organizationRoutes(app: GuardFastify, ctx: OAuthContext): Promise<void> {
  await app.register(async (instance) => {
    const routes = instance.withTypeProvider<ZodTypeProvider>()
    const base = '/api/v1/organizations/:organization'

    const audited = <T>(actor: Actor, entry: (result: T) => AuditEntry, work: (tx: Sql) => Promise<T>) =>
      ctx.sql.transaction(async (tx: Sql) => {
        const result = await work(tx)
        await recordAudit(tx, actor, entry(result))
        return result
      })

    routes.get(
      base,
      {
        schema: {
          summary: 'Get an organization I belong to',
          tags: TAGS,
          security,
          params: orgParam,
          response: { 200: myOrganization, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const caller = await organizationCaller(ctx, request, organization.id)
        assertMayRead(caller)
        return { ...organization, myRole: caller.role }
      },
    )
    routes.patch(
      base,
      {
        schema: {
          summary: 'Rename an organization I own',
          tags: TAGS,
          security,
          params: orgParam,
          body: organizationRename,
          response: { 200: myOrganization, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const caller = await organizationCaller(ctx, request, organization.id)
        assertMayRename(caller)
        const renamed = await audited<OrganizationView>(
          caller.actor,
          (result) => ({
            action: 'organization.rename',
            targetType: 'organization',
            targetId: result.id,
            details: { name: result.name },
          }),
          (tx) => renameOrganization(tx, { organization: organization.id, changes: request.body }),
        )
        return { ...renamed, myRole: caller.role }
      },
    )
    routes.get(
      `${base}/members`,
      {
        schema: {
          summary: 'List the members of an organization I belong to',
          tags: TAGS,
          security,
          params: orgParam,
          response: { 200: z.object({ members: z.array(membershipView) }), ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        assertMayRead(await organizationCaller(ctx, request, organization.id))
        return { members: await listMembers(ctx.sql, organization.id) }
      },
    )
    routes.patch(
      `${base}/members/:userId`,
      {
        schema: {
          summary: "Change a member's role",
          description:
            'Owners, and admins for members below owner (an admin makes nobody an owner). An organization keeps at least one owner (409 otherwise).',
          tags: TAGS,
          security,
          params: memberParam,
          body: roleChange,
          response: { 200: membershipView, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const caller = await organizationCaller(ctx, request, organization.id)
        assertMayRead(caller)
        const current = await getMember(ctx.sql, organization.id, request.params.userId)
        assertMayManageMember(caller, { currentRole: current.role, newRole: request.body.role })
        return audited<MembershipView>(
          caller.actor,
          (changed) => ({
            action: 'membership.role',
            targetType: 'membership',
            targetId: changed.id,
            details: { organizationId: changed.organizationId, userId: changed.userId, role: changed.role },
          }),
          (tx) =>
            changeMemberRole(tx, { organization: organization.id, userId: current.userId, changes: request.body }),
        )
      },
    )
    routes.delete(
      `${base}/members/:userId`,
      {
        schema: {
          summary: 'Remove a member from an organization',
          description:
            'Owners, and admins for members below owner. An organization keeps at least one owner (409 otherwise).',
          tags: TAGS,
          security,
          params: memberParam,
          response: { 200: membershipView, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const caller = await organizationCaller(ctx, request, organization.id)
        assertMayRead(caller)
        const current = await getMember(ctx.sql, organization.id, request.params.userId)
        assertMayManageMember(caller, { currentRole: current.role })
        return audited<MembershipView>(
          caller.actor,
          (removed) => ({
            action: 'membership.remove',
            targetType: 'membership',
            targetId: removed.id,
            details: { organizationId: removed.organizationId, userId: removed.userId },
          }),
          (tx) => removeMember(tx, { organization: organization.id, userId: current.userId }),
        )
      },
    )
  })
}
