import type { RESOURCES } from '../../access/resources.ts'

/**
 * What the rest of the collector needs to know about one kind of monitored subject, so that lists,
 * searches, bulk actions, SLOs, status pages, counts and plan usage iterate the registry instead of
 * naming kinds one by one (DESIGN "Extension points" 2).
 */
export interface MonitorKindSpec {
  /** What messages call one: `domain`, `heartbeat monitor`. */
  noun: string
  plural: string
  /** Capitalised, for "… not found". */
  title: string
  /** Where its rows live; every table has `id`, `name`, `tags`, `group_id` and `organization_id`. */
  table: 'monitoring.monitors' | 'monitoring.devices'
  nameColumn: 'name'
  organizationColumn: 'organization_id'
  /** The permission resource: reading it needs `<resource>:read`. */
  resource: (typeof RESOURCES)[number]
  /** Where its state comes from: probe checks, missed deadlines of pings, or an agent's reports. */
  stateSource: 'probe' | 'deadline' | 'agent'
  /** Whether probes run it on an interval (bulk interval and location edits apply). */
  scheduled: boolean
  /** Whether the plan's `monitors` limit counts it. */
  countsAsMonitor: boolean
  /** Its REST collection, e.g. `/api/domains`. */
  path: string
}

export const defineKind = <const Spec extends MonitorKindSpec>(spec: Spec) => spec
