import { GuardError, type Logger, type Sql } from '@guard/shared'
import { z } from 'zod'
import { requireCatalogPlan } from '../plans/find.ts'

/** Who changes a plan; the operator's CLI today, an admin through identity's admin API later. */
export interface AdminCaller {
  kind: 'operator' | 'user' | 'admin_token'
  id: string
}

export const setOrganizationPlanInput = z.object({
  /** The organization's id or slug. */
  organization: z.string().min(1).max(128),
  /** A plan id of the catalog, or null for no limits. */
  plan: z.string().min(1).max(64).nullable(),
})

export type SetOrganizationPlanInput = z.infer<typeof setOrganizationPlanInput>

/**
 * Puts an organization on a catalog plan, or on none (no limits). The collector sees the change
 * within its plan cache's lifetime (GUARD_PLAN_CACHE_SECONDS), since it asks identity for plans.
 */
export async function setOrganizationPlan({
  ctx,
  caller,
  input,
}: {
  ctx: { sql: Sql; log: Logger }
  caller: AdminCaller
  input: SetOrganizationPlanInput
}) {
  const { organization, plan } = setOrganizationPlanInput.parse(input)
  if (plan !== null) await requireCatalogPlan(ctx.sql, ctx.log, plan)
  const { rows } = await ctx.sql.query<{ id: string; slug: string; name: string; plan: string | null }>(
    `UPDATE identity.organizations SET plan = $2 WHERE id = $1 OR slug = $1 RETURNING id, slug, name, plan`,
    [organization, plan],
  )
  const updated = rows[0]
  if (!updated) throw new GuardError('NOT_FOUND', `organization ${organization} not found`)
  ctx.log.info({ organizationId: updated.id, plan, by: caller }, 'organization plan changed')
  return updated
}
