import { GuardError, type Logger, type Sql } from '@guard/shared'
import { getCatalog } from '../catalog/get.ts'
import type { CatalogPlan } from '../catalog/schema.ts'

/** The catalog plan with this id, or undefined when the published catalog has none. */
export async function findCatalogPlan(sql: Sql, log: Logger, planId: string): Promise<CatalogPlan | undefined> {
  const catalog = await getCatalog(sql, log)
  return catalog.plans.find((plan) => plan.id === planId)
}

/** A plan id an organization may be put on: one the published catalog lists. */
export async function requireCatalogPlan(sql: Sql, log: Logger, planId: string): Promise<CatalogPlan> {
  const catalog = await getCatalog(sql, log)
  const plan = catalog.plans.find((candidate) => candidate.id === planId)
  if (!plan) {
    const known = catalog.plans.map((candidate) => candidate.id).join(', ') || 'none'
    throw new GuardError('VALIDATION_ERROR', `plan: '${planId}' is not a plan of the catalog (known: ${known})`)
  }
  return plan
}
