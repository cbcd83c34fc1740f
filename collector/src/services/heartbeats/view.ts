import { pingType } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { consoleBaseUrl } from '../../env.ts'
import { lastErrorOf } from '../domains/metrics.ts'
import { readMonitorStates } from '../monitor-state/read.ts'
import { scheduleOf } from './find.ts'
import { nextExpectedTimes } from './schedule.ts'
import type { HeartbeatRecord, HeartbeatView } from './schemas.ts'

/** The public URL a job pings; the collector's root serves it, as it serves the console. */
export const pingUrlOf = (ctx: Pick<CollectorContext, 'env'>, token: string) =>
  `${consoleBaseUrl(ctx.env).replace(/\/+$/, '')}/ping/${token}`

const lastPingOf = (heartbeat: HeartbeatRecord) => {
  const type = pingType.safeParse(heartbeat.lastPingType)
  return heartbeat.lastPingAt && type.success ? { at: heartbeat.lastPingAt, type: type.data } : null
}

/** Heartbeats as the API shows them: the record with its state, ping URL and next expected times. */
export async function viewHeartbeats(
  ctx: Pick<CollectorContext, 'sql' | 'env'>,
  heartbeats: HeartbeatRecord[],
  now = new Date(),
): Promise<HeartbeatView[]> {
  const states = await readMonitorStates(
    ctx.sql,
    heartbeats.map((heartbeat) => heartbeat.id),
  )
  return heartbeats.map((heartbeat) => {
    const state = states.get(heartbeat.id)
    const lastError = state?.lastError ? lastErrorOf(state.lastError) : undefined
    return {
      id: heartbeat.id,
      name: heartbeat.name,
      every: heartbeat.every,
      cron: heartbeat.cron,
      timezone: heartbeat.timezone,
      grace: heartbeat.grace,
      maxDuration: heartbeat.maxDuration,
      tags: heartbeat.tags,
      enabled: heartbeat.enabled,
      status: state?.status ?? 'unknown',
      pingUrl: pingUrlOf(ctx, heartbeat.token),
      nextExpectedAt: heartbeat.nextDueAt,
      nextExpectedTimes: nextExpectedTimes(scheduleOf(heartbeat), now, 5).map((time) => time.toISOString()),
      lastPing: lastPingOf(heartbeat),
      runningSince: heartbeat.runningSince,
      ...(lastError ? { lastError: { kind: lastError.kind, message: lastError.message, at: lastError.at } } : {}),
      createdAt: heartbeat.createdAt,
      updatedAt: heartbeat.updatedAt,
    }
  })
}
