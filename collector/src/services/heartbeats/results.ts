import { type CheckResult, type ErrorKind, encodeCheckResult, resultSubject } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/** The one pseudo-location of heartbeat results: no probe checks a heartbeat, the job reports in. */
export const HEARTBEAT_LOCATION = 'heartbeat'

/**
 * A ping's or a missed deadline's outcome as a check result, so state, history, rollups, uptime,
 * incidents and notifications take heartbeats through the same pipeline as probe results.
 */
export function heartbeatResult(fields: {
  id: string
  monitorId: string
  organizationId: string
  at: number
  up: boolean
  durationMs?: number | undefined
  errorKind?: ErrorKind
  error?: string
}): CheckResult {
  return {
    v: 1,
    id: fields.id,
    monitorId: fields.monitorId,
    organizationId: fields.organizationId,
    location: HEARTBEAT_LOCATION,
    kind: 'heartbeat',
    status: fields.up ? 'up' : 'down',
    startedAt: new Date(fields.at).toISOString(),
    responseTimeMs: fields.durationMs ?? 0,
    ...(fields.errorKind ? { errorKind: fields.errorKind } : {}),
    ...(fields.error ? { error: fields.error } : {}),
  }
}

/**
 * Publishes the results on the results stream with their ids as message ids, so a repeat after a
 * crash (same deterministic id) is dropped by the bus.
 */
export async function publishHeartbeatResults(ctx: Pick<CollectorContext, 'bus'>, results: CheckResult[]) {
  await Promise.all(
    results.map((result) =>
      ctx.bus.publish(resultSubject(HEARTBEAT_LOCATION), encodeCheckResult(result), { msgId: result.id }),
    ),
  )
}

/**
 * A result time after every earlier result of the heartbeat: the state machine ignores results not
 * newer than the last one it saw, and a ping that arrives a moment after a missed deadline was
 * declared must still bring the heartbeat back up.
 */
export const resultTime = (at: number, lastResultAt: number | null) =>
  lastResultAt !== null && at <= lastResultAt ? lastResultAt + 1 : at
