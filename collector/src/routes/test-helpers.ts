import { type CheckResult, type DeviceHeartbeat, newId } from '@guard/shared'
import { sampleHeartbeat } from '@guard/shared/testing'

/** A check result `secondsAgo` seconds old, for seeding stores in tests. */
export function resultFor(
  monitorId: string,
  organizationId: string,
  location: string,
  secondsAgo: number,
  status: CheckResult['status'],
  responseTimeMs: number,
  extra: Partial<CheckResult> = {},
): CheckResult {
  return {
    v: 1,
    id: newId(),
    monitorId,
    organizationId,
    location,
    kind: 'http',
    status,
    startedAt: new Date(Date.now() - secondsAgo * 1000).toISOString(),
    responseTimeMs,
    statusCode: status === 'down' ? 503 : 200,
    ...extra,
  }
}

/** A device heartbeat `secondsAgo` seconds old with the given usage percentages, for seeding stores. */
export function heartbeatFor(
  deviceId: string,
  organizationId: string,
  secondsAgo: number,
  usage: { cpu?: number; memory?: number; disk?: number } = {},
): DeviceHeartbeat {
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString()
  return {
    v: 1,
    deviceId,
    organizationId,
    timestamp: at,
    receivedAt: at,
    heartbeat: sampleHeartbeat(deviceId, usage),
  }
}
