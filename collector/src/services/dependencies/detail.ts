import type { Sql } from '@guard/shared'
import { readDependencies } from './read.ts'
import type { DependencyDetail } from './schemas.ts'

/** The dependency fields of one monitor's detail. */
export async function dependencyDetailOf(sql: Sql, monitorId: string): Promise<DependencyDetail> {
  const found = (await readDependencies(sql, [monitorId])).get(monitorId)!
  return { dependsOn: found.dependsOn, dependentsCount: found.dependents.length, suppressedBy: found.suppressedBy }
}
