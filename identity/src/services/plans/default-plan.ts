import { ConfigError, GuardError, type Logger, type Sql } from '@guard/shared'
import { requireCatalogPlan } from './find.ts'

/**
 * GUARD_DEFAULT_PLAN checked against the published catalog, so a typo stops the start (or the
 * admin command) with a configuration error instead of leaving every new organization on a plan
 * that does not exist.
 */
export async function resolveDefaultPlan(
  sql: Sql,
  log: Logger,
  env: { GUARD_DEFAULT_PLAN?: string | undefined },
): Promise<string | null> {
  if (!env.GUARD_DEFAULT_PLAN) return null
  try {
    return (await requireCatalogPlan(sql, log, env.GUARD_DEFAULT_PLAN)).id
  } catch (error) {
    if (!(error instanceof GuardError)) throw error
    throw new ConfigError(`identity: GUARD_DEFAULT_PLAN: ${error.message.replace(/^plan: /, '')}`)
  }
}
