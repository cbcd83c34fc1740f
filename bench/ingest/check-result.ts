import { type CheckResult, DEFAULT_ORGANIZATION, newId } from '@guard/shared'

/**
 * The `index`th result of a bench run: monitors take turns across `locations`, one in fifty is
 * down, and results are 10 ms apart from `startedAt`.
 */
export function benchCheckResult(input: {
  index: number
  ids: readonly string[]
  monitors: number
  locations: readonly string[]
  started: number
}): CheckResult {
  const { index, ids, monitors, locations, started } = input
  return {
    v: 1,
    id: newId(),
    monitorId: ids[Math.floor(index / locations.length) % monitors]!,
    organizationId: DEFAULT_ORGANIZATION.id,
    location: locations[index % locations.length]!,
    kind: 'http',
    status: index % 50 === 0 ? 'down' : 'up',
    startedAt: new Date(started + index * 10).toISOString(),
    responseTimeMs: 50 + (index % 200),
    statusCode: 200,
    phases: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 20, transferMs: 1 },
  }
}
