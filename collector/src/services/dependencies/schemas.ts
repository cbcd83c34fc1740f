import { z } from 'zod'

/** At most this many parents per monitor: a dependency names what one check sits behind, not a fleet. */
export const MAX_DEPENDENCIES = 50

const monitorId = z.string().min(1).max(64)

export const setDependenciesInput = z.strictObject({
  dependsOn: z
    .array(monitorId)
    .max(MAX_DEPENDENCIES, `dependsOn: at most ${MAX_DEPENDENCIES} monitors`)
    .describe('Ids of the domains, services or heartbeats of the same organization this monitor sits behind'),
})
export type SetDependenciesInput = z.input<typeof setDependenciesInput>

export const suppressedByView = z
  .object({ monitorId: z.string(), incidentId: z.string().nullable() })
  .nullable()
  .describe('While a parent is down: the parent found down and the incident this failure is counted under')

export const dependenciesView = z.object({
  monitorId: z.string(),
  dependsOn: z.array(z.string()).describe('The monitors this one depends on'),
  dependents: z.array(z.string()).describe('The monitors that depend on this one'),
  dependentsCount: z.number().int(),
  suppressedBy: suppressedByView,
})
export type DependenciesView = z.infer<typeof dependenciesView>

export const suppressedDependentView = z.object({
  monitorId: z.string(),
  name: z.string(),
  kind: z.string(),
  parentId: z.string().describe('The direct parent found down (the root cause for a chain of dependencies)'),
  reason: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable().describe('When the dependent came up again; null while it is still down'),
})
export const dependentsAffectedView = z.object({
  count: z.number().int(),
  monitors: z.array(suppressedDependentView),
})
export type DependentsAffectedView = z.infer<typeof dependentsAffectedView>

/** What a monitor's detail (domain, service, heartbeat) shows of its dependencies; lists leave them out. */
export const dependencyDetailFields = {
  dependsOn: z.array(z.string()).optional().describe('The monitors this one depends on (README "Dependencies")'),
  dependentsCount: z.number().int().optional().describe('How many monitors depend on this one'),
  suppressedBy: suppressedByView.optional(),
}
export type DependencyDetail = {
  dependsOn: string[]
  dependentsCount: number
  suppressedBy: z.infer<typeof suppressedByView>
}
