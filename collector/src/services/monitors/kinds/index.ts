import { deviceKind } from './device.ts'
import { domainKind } from './domain.ts'
import { heartbeatKind } from './heartbeat.ts'
import { serviceKind } from './service.ts'
import type { MonitorKindSpec } from './spec.ts'
import { syntheticKind } from './synthetic.ts'

export type { MonitorKindSpec } from './spec.ts'

/**
 * Every kind of monitored subject. Adding one: its file here and its entry below; the enums, the
 * search, bulk actions, group members, SLO subjects, status-page components, dashboard counts
 * and plan usage follow.
 */
export const monitorKinds = {
  domain: domainKind,
  service: serviceKind,
  heartbeat: heartbeatKind,
  device: deviceKind,
  synthetic: syntheticKind,
} as const satisfies Record<string, MonitorKindSpec>

export type SubjectKind = keyof typeof monitorKinds

/** The kinds in a stable order, for zod enums: `z.enum(MONITOR_KINDS)`. */
export const MONITOR_KINDS = Object.keys(monitorKinds) as [SubjectKind, ...SubjectKind[]]

/** Kinds stored as rows of monitoring.monitors (every kind but devices). */
export type MonitorRowKind = {
  [K in SubjectKind]: (typeof monitorKinds)[K]['table'] extends 'monitoring.monitors' ? K : never
}[SubjectKind]
export const MONITOR_ROW_KINDS = MONITOR_KINDS.filter(
  (kind): kind is MonitorRowKind => monitorKinds[kind].table === 'monitoring.monitors',
)

/** Kinds probes run on an interval. */
export const SCHEDULED_KINDS = MONITOR_KINDS.filter((kind) => monitorKinds[kind].scheduled)

/** The permission reading a kind needs, e.g. `domains:read`. */
export const readPermission = (kind: SubjectKind) => `${monitorKinds[kind].resource}:read` as const
export const writePermission = (kind: SubjectKind) => `${monitorKinds[kind].resource}:write` as const

/** Kinds whose rows carry a probe target (the monitor layer: domains, services, synthetic checks). */
export type ProbeKind = {
  [K in SubjectKind]: (typeof monitorKinds)[K]['stateSource'] extends 'probe' ? K : never
}[SubjectKind]
export const PROBE_KINDS = MONITOR_KINDS.filter(
  (kind): kind is ProbeKind => monitorKinds[kind].stateSource === 'probe',
) as [ProbeKind, ...ProbeKind[]]
