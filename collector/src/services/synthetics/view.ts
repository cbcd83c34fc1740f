import { GuardError } from '@guard/shared'
import type { MonitorRecord } from '../monitors/schemas.ts'
import type { SyntheticView } from './schemas.ts'

/** A monitor row of kind `synthetic` as the API shows it. */
export function syntheticOf(monitor: MonitorRecord, groupId: string | null): SyntheticView {
  if (monitor.target.kind !== 'flow') throw new GuardError('INTERNAL_ERROR', `monitor ${monitor.id} has no flow target`)
  return {
    id: monitor.id,
    organizationId: monitor.organizationId,
    name: monitor.name,
    type: 'api',
    steps: monitor.target.steps,
    secretsSet: monitor.credentialsSet,
    checkInterval: monitor.checkInterval,
    timeout: monitor.timeout,
    enabled: monitor.enabled,
    locations: monitor.locations,
    tags: monitor.tags,
    failureThreshold: monitor.failureThreshold,
    quorumPercent: monitor.quorumPercent,
    groupId,
    createdAt: monitor.createdAt,
    updatedAt: monitor.updatedAt,
  }
}
