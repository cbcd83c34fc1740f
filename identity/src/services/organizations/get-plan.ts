import { GuardError, type Logger, type OrganizationPlan, type Sql } from '@guard/shared'
import { findCatalogPlan } from '../plans/find.ts'

/**
 * An organization's plan with that plan's limits from the catalog, as the collector enforces
 * them. A plan id the catalog no longer lists is a CONFLICT rather than "no limits": an
 * operator who removed a plan did not mean to lift its limits.
 */
export async function getOrganizationPlan(sql: Sql, log: Logger, organizationId: string): Promise<OrganizationPlan> {
  const { rows } = await sql.query<{ id: string; plan: string | null }>(
    'SELECT id, plan FROM identity.organizations WHERE id = $1',
    [organizationId],
  )
  const organization = rows[0]
  if (!organization) throw new GuardError('NOT_FOUND', `organization ${organizationId} not found`)
  if (organization.plan === null) return { organizationId, plan: null }
  const plan = await findCatalogPlan(sql, log, organization.plan)
  if (!plan) {
    throw new GuardError('CONFLICT', `the organization's plan '${organization.plan}' is not in the published catalog`)
  }
  return { organizationId, plan: { id: plan.id, name: plan.name, limits: plan.limits ?? {} } }
}
