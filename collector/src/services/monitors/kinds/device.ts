import { defineKind } from './spec.ts'

/** Not a monitor row: devices have their own table and their agent reports their state. */
export const deviceKind = defineKind({
  noun: 'device',
  plural: 'devices',
  title: 'Device',
  table: 'monitoring.devices',
  nameColumn: 'name',
  organizationColumn: 'organization_id',
  resource: 'devices',
  stateSource: 'agent',
  scheduled: false,
  countsAsMonitor: false,
  path: '/api/devices',
})
