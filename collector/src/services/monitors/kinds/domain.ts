import { defineKind } from './spec.ts'

export const domainKind = defineKind({
  noun: 'domain',
  plural: 'domains',
  title: 'Domain',
  table: 'monitoring.monitors',
  nameColumn: 'name',
  organizationColumn: 'organization_id',
  resource: 'domains',
  stateSource: 'probe',
  scheduled: true,
  countsAsMonitor: true,
  path: '/api/domains',
})
