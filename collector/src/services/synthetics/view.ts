import { GuardError } from '@guard/shared'
import type { MonitorRecord } from '../monitors/schemas.ts'
import type { SyntheticView } from './schemas.ts'

/** The check's locations without a browser probe online; `*` counts as missing when no location has one. */
function unavailableAt(locations: readonly string[], browserAt: ReadonlySet<string>): string[] {
  if (locations.includes('*')) return browserAt.size === 0 ? ['*'] : []
  return locations.filter((location) => !browserAt.has(location))
}

/**
 * A monitor row of kind `synthetic` as the API shows it; `browserAt` are the locations with an
 * online browser probe (findBrowserLocations), which a browser check needs.
 */
export function syntheticOf(
  monitor: MonitorRecord,
  groupId: string | null,
  browserAt: ReadonlySet<string>,
): SyntheticView {
  const { target } = monitor
  if (target.kind !== 'flow' && target.kind !== 'browser') {
    throw new GuardError('INTERNAL_ERROR', `monitor ${monitor.id} has no synthetic target`)
  }
  return {
    id: monitor.id,
    organizationId: monitor.organizationId,
    name: monitor.name,
    type: target.kind === 'flow' ? 'api' : 'browser',
    steps: target.kind === 'flow' ? target.steps : [],
    script: target.kind === 'browser' ? target.script : null,
    screenshotOnSuccess: target.kind === 'browser' && target.screenshotOnSuccess === true,
    browserUnavailableAt: target.kind === 'browser' ? unavailableAt(monitor.locations, browserAt) : [],
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
