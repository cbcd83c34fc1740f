import type { GuardFastify, Sql } from '@guard/shared'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OAuthContext } from '../oauth/context.ts'
import { problemResponses } from '../routes/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import {
  getOrganizationSecondFactor,
  organizationSecondFactorView,
} from '../services/factors/get-organization-policy.ts'
import { organizationSecondFactor, setOrganizationSecondFactor } from '../services/factors/set-organization-policy.ts'
import { assertMayChangeSecondFactor, assertMayRead } from '../services/memberships/policy.ts'
import { getOrganization } from '../services/organizations/view.ts'
import { organizationCaller } from './caller.ts'

const TAGS = ['account']
const security = [{ bearer: [] }]
const errors = problemResponses(400, 401, 403, 404)
const params = z.object({ organization: z.string().min(1).describe('organization id or slug') })

/**
 * Whether an organization's members must sign in with a second factor: any member reads it (and
 * who has none yet), owners set it. Enforced at identity's authorize, so no token reaches the
 * organization's data from a sign-in below it.
 */
export async function organizationSecondFactorRoutes(app: GuardFastify, ctx: OAuthContext): Promise<void> {
  await app.register(async (instance) => {
    const routes = instance.withTypeProvider<ZodTypeProvider>()
    const path = '/api/v1/organizations/:organization/second-factor'
    routes.get(
      path,
      {
        schema: {
          summary: "An organization's second-factor requirement and the members without a second factor",
          tags: TAGS,
          security,
          params,
          response: { 200: organizationSecondFactorView, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        assertMayRead(await organizationCaller(ctx, request, organization.id))
        return getOrganizationSecondFactor(ctx.sql, organization.id)
      },
    )
    routes.put(
      path,
      {
        schema: {
          summary: 'Require (or stop requiring) a second factor of every member',
          description:
            'Owners only. passkey_or_totp: a passkey or an authenticator app; passkey: a passkey. Members without one are sent to enrol at their next sign-in.',
          tags: TAGS,
          security,
          params,
          body: organizationSecondFactor,
          response: { 200: organizationSecondFactorView, ...errors },
        },
      },
      async (request) => {
        const organization = await getOrganization(ctx.sql, request.params.organization)
        const caller = await organizationCaller(ctx, request, organization.id)
        assertMayChangeSecondFactor(caller)
        await ctx.sql.transaction(async (tx: Sql) => {
          await setOrganizationSecondFactor(tx, { organizationId: organization.id, policy: request.body.secondFactor })
          await recordAudit(tx, caller.actor, {
            action: 'organization.second_factor',
            targetType: 'organization',
            targetId: organization.id,
            details: { secondFactor: request.body.secondFactor },
          })
        })
        return getOrganizationSecondFactor(ctx.sql, organization.id)
      },
    )
  })
}
