import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { selectRows } from '../results/query.ts'
import { round2 } from '../results/window.ts'
import { findHeartbeat } from './find.ts'

const DAY_MS = 86_400_000
export const MAX_HISTORY_DAYS = 90

export const heartbeatDaysQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_HISTORY_DAYS)
    .default(30)
    .meta({ description: `Calendar days (UTC) up to today, 1 to ${MAX_HISTORY_DAYS}.` }),
})

export const heartbeatDay = z.object({
  date: z.string().meta({ description: 'The calendar day in UTC, `YYYY-MM-DD`.' }),
  runs: z.number().int().meta({ description: 'runs that ended (pings) plus windows missed' }),
  failures: z
    .number()
    .int()
    .meta({ description: 'runs that failed, ended with an error, took too long or were missed' }),
  missed: z.number().int().nullable().meta({
    description:
      'windows that passed without a ping (counted in runs and failures); null for a day older than the raw results are kept (`GUARD_RETENTION_RAW_DAYS`), since the rollups do not say why a run failed',
  }),
  uptime: z.number().nullable().meta({ description: 'percent of runs that succeeded; null without a run' }),
  avgRunSeconds: z
    .number()
    .nullable()
    .meta({ description: 'from `/start` to the end of the runs that ended that day; null without a timed run' }),
  p95RunSeconds: z.number().nullable(),
})
export type HeartbeatDay = z.infer<typeof heartbeatDay>

interface CountRow {
  day: string
  runs: string | number
  failures: string | number
  missed: string | number
}
interface DurationRow {
  day: string
  avg: number
  p95: number
}

/** The `count` UTC dates ending today, oldest first, as `YYYY-MM-DD`. */
export function utcDates(count: number, now: Date): string[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS
  return Array.from({ length: count }, (_, index) =>
    new Date(today - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  )
}

interface HistoryRequest {
  ctx: Pick<CollectorContext, 'sql' | 'timeseries' | 'credentialKey' | 'env'>
  caller: Caller
  input: { id: string; days?: number | undefined }
  now?: Date
}

/** A heartbeat's history per UTC day, oldest first (see `readHeartbeatHistory`). */
export async function listHeartbeatDays(request: HistoryRequest): Promise<HeartbeatDay[]> {
  return (await readHeartbeatHistory(request)).days
}

/**
 * A heartbeat's name and its history per UTC day, oldest first, every day present (empty without
 * data). Runs and failures come from the hourly rollups like the heartbeat report's, the missed
 * windows from the raw results' error kind (while they are kept) and run durations from the run log
 * (only runs with a start ping have one): two queries for the whole range, whatever its length.
 */
export async function readHeartbeatHistory({
  ctx,
  caller,
  input,
  now = new Date(),
}: HistoryRequest): Promise<{ name: string; days: HeartbeatDay[] }> {
  const { days } = heartbeatDaysQuery.parse({ days: input.days })
  const heartbeat = await findHeartbeat(ctx.sql, ctx.credentialKey, caller, input.id)
  const dates = utcDates(days, now)
  const params = {
    org: heartbeat.organizationId,
    monitor: heartbeat.id,
    from: Date.parse(`${dates[0]}T00:00:00Z`),
  }
  const [counts, durations] = await Promise.all([
    // The rollups hold no error kind: the missed windows are counted from the raw results, which the
    // primary key narrows to this heartbeat's range, and only those rows pass the filter.
    selectRows<CountRow>(
      ctx.timeseries,
      `SELECT day, sum(runs) AS runs, sum(failures) AS failures, sum(missed) AS missed FROM (
         SELECT toDate(bucket, 'UTC') AS day, sum(checks) AS runs, sum(failures) AS failures, toUInt64(0) AS missed
           FROM check_results_1h
          WHERE organization_id = {org:String} AND monitor_id = {monitor:String}
            AND bucket >= toDateTime(intDiv({from:Int64}, 1000), 'UTC')
          GROUP BY day
         UNION ALL
         SELECT toDate(started_at, 'UTC') AS day, toUInt64(0), toUInt64(0), count()
           FROM check_results FINAL
          WHERE organization_id = {org:String} AND monitor_id = {monitor:String}
            AND started_at >= fromUnixTimestamp64Milli({from:Int64}) AND error_kind = 'missed'
          GROUP BY day
       ) GROUP BY day`,
      params,
    ),
    selectRows<DurationRow>(
      ctx.timeseries,
      `SELECT toDate(received_at, 'UTC') AS day, avg(duration_ms) AS avg, quantile(0.95)(duration_ms) AS p95
         FROM heartbeat_pings FINAL
        WHERE organization_id = {org:String} AND monitor_id = {monitor:String}
          AND received_at >= fromUnixTimestamp64Milli({from:Int64}) AND duration_ms IS NOT NULL
        GROUP BY day`,
      params,
    ),
  ])
  const countsOf = new Map(counts.map((row) => [row.day, row]))
  const durationsOf = new Map(durations.map((row) => [row.day, row]))
  const seconds = (ms: number | undefined) => (ms === undefined ? null : round2(Number(ms) / 1000))
  // Raw results older than their retention may be gone already, and with them the missed windows.
  const rawKeptFrom = now.getTime() - ctx.env.GUARD_RETENTION_RAW_DAYS * DAY_MS
  const history = dates.map((date) => {
    const count = countsOf.get(date)
    const runs = Number(count?.runs ?? 0)
    const failures = Number(count?.failures ?? 0)
    const duration = durationsOf.get(date)
    return {
      date,
      runs,
      failures,
      missed: Date.parse(`${date}T00:00:00Z`) < rawKeptFrom ? null : Number(count?.missed ?? 0),
      uptime: runs ? round2(((runs - failures) / runs) * 100) : null,
      avgRunSeconds: seconds(duration?.avg),
      p95RunSeconds: seconds(duration?.p95),
    }
  })
  return { name: heartbeat.name, days: history }
}
