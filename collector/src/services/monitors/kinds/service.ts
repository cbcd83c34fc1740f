import { defineKind } from './spec.ts'

export const serviceKind = defineKind({
  noun: 'service',
  plural: 'services',
  title: 'Service',
  table: 'monitoring.monitors',
  nameColumn: 'name',
  organizationColumn: 'organization_id',
  resource: 'services',
  stateSource: 'probe',
  scheduled: true,
  countsAsMonitor: true,
  path: '/api/services',
})
