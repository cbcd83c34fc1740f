import type { Caller, CollectorContext } from '../../context.ts'
import { findAnyMonitor } from './find.ts'
import { readDependencies } from './read.ts'
import type { DependenciesView } from './schemas.ts'

/** A monitor's parents, its dependents and, while a parent is down, what its failure is counted under. */
export async function getDependencies({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<DependenciesView> {
  const monitor = await findAnyMonitor(ctx.sql, caller, input.id, 'read')
  const found = (await readDependencies(ctx.sql, [monitor.id])).get(monitor.id)!
  return { monitorId: monitor.id, ...found, dependentsCount: found.dependents.length }
}
