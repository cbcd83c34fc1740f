import type { Sql } from '@guard/shared'
import { readDependencies } from './read.ts'
import type { DependencyDetail } from './schemas.ts'

/** The dependency fields of one monitor's detail. */
export async function dependencyDetailOf(sql: Sql, monitorId: string): Promise<DependencyDetail> {
  const found = (await readDependencies(sql, [monitorId])).get(monitorId)!
  return { dependsOn: found.dependsOn, dependentsCount: found.dependents.length, suppressedBy: found.suppressedBy }
}

/**
 * The same fields where a view shows beyond its spec only what carries information (README
 * "Services"): none for a monitor with no dependencies, no dependents and nothing suppressing it.
 */
export async function informativeDependencyDetailOf(sql: Sql, monitorId: string): Promise<Partial<DependencyDetail>> {
  const { dependsOn, dependentsCount, suppressedBy } = await dependencyDetailOf(sql, monitorId)
  return {
    ...(dependsOn.length > 0 ? { dependsOn } : {}),
    ...(dependentsCount > 0 ? { dependentsCount } : {}),
    ...(suppressedBy ? { suppressedBy } : {}),
  }
}
