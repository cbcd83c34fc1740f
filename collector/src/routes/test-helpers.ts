import { type CheckResult, newId } from '@guard/shared'

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
