import { defineKind } from './spec.ts'

/** Runs nowhere: its results are pings and missed deadlines (heartbeats/detect-deadlines.ts). */
export const heartbeatKind = defineKind({
  noun: 'heartbeat monitor',
  plural: 'heartbeat monitors',
  title: 'Heartbeat',
  table: 'monitoring.monitors',
  nameColumn: 'name',
  organizationColumn: 'organization_id',
  resource: 'heartbeats',
  stateSource: 'deadline',
  scheduled: false,
  countsAsMonitor: true,
  path: '/api/heartbeats',
})
