import { defineKind } from './spec.ts'

/**
 * Synthetic checks (README "Synthetic checks"): `type: 'api'` runs ordered HTTP steps on probes;
 * `type: 'browser'` (scripted journeys) will be a second type of the same kind.
 */
export const syntheticKind = defineKind({
  noun: 'synthetic check',
  plural: 'synthetic checks',
  title: 'Synthetic check',
  table: 'monitoring.monitors',
  nameColumn: 'name',
  organizationColumn: 'organization_id',
  resource: 'synthetics',
  stateSource: 'probe',
  scheduled: true,
  countsAsMonitor: true,
  path: '/api/synthetics',
})
