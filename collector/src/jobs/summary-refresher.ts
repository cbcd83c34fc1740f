import type { CheckResult } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { invalidateIngestedReads } from '../services/read-cache/invalidate.ts'
import {
  DAILY_DAYS,
  mergeScopes,
  refreshMonitorSummaries,
  type SummaryScope,
  scopeOfResults,
  utcDay,
} from '../services/summaries/refresh.ts'

export interface SummaryRefresher {
  /** Marks the monitors of an ingested batch: their figures are recomputed within `delayMs`. */
  touched(results: CheckResult[]): void
  /** Marks every monitor, from `sinceDay` on. */
  touchAll(sinceDay: string): void
  /** Marks these monitors, from `sinceDay` on. */
  touchMonitors(monitors: Array<{ id: string; organizationId: string }>, sinceDay: string): void
  /** Resolves once everything marked so far is recomputed (or failed and was logged). */
  settled(): Promise<void>
  stop(): Promise<void>
}

/**
 * Recomputes the PostgreSQL copies of the rollups after ingest, one recomputation at a time for
 * whatever was marked meanwhile, then invalidates the cached reads of the organizations it touched
 * (here and, through the bus, on every replica). A failed recomputation keeps its scope marked and
 * is retried with the next one.
 */
export function createSummaryRefresher(
  ctx: CollectorContext,
  delayMs = ctx.env.GUARD_SUMMARY_REFRESH_MS,
  onRefreshed: (seconds: number) => void = () => {},
) {
  let pending: SummaryScope | undefined
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  let stopped = false

  const organizationsOf = async (scope: SummaryScope) => {
    if (!scope.every) return scope.monitors.map((monitor) => monitor.organizationId)
    const { rows } = await ctx.sql.query<{ organization_id: string }>(
      'SELECT DISTINCT organization_id FROM monitoring.monitors',
    )
    return rows.map((row) => row.organization_id)
  }

  const runOnce = async () => {
    timer = undefined
    const scope = pending
    pending = undefined
    if (!scope) return
    try {
      const started = performance.now()
      await refreshMonitorSummaries({ sql: ctx.sql, timeseries: ctx.timeseries, input: scope })
      onRefreshed((performance.now() - started) / 1000)
      await invalidateIngestedReads({
        ctx,
        organizationIds: await organizationsOf(scope),
        // Every monitor swept: the organization-wide scopes go, and each monitor's page with its own TTL.
        monitorIds: scope.every ? [] : scope.monitors.map((monitor) => monitor.id),
      })
    } catch (error) {
      pending = mergeScopes(pending, scope)
      ctx.log.warn({ err: error }, 'recomputing monitor summaries failed: retrying with the next batch')
      schedule()
    }
  }
  const flushNow = () => {
    if (timer) clearTimeout(timer)
    running = running.then(runOnce)
    return running
  }
  const schedule = () => {
    if (timer || stopped) return
    timer = setTimeout(flushNow, delayMs)
  }
  const mark = (scope: SummaryScope | undefined) => {
    if (!scope) return
    pending = mergeScopes(pending, scope)
    schedule()
  }

  return {
    touched: (results) => mark(scopeOfResults(results)),
    touchAll: (sinceDay) => mark({ every: true, sinceDay }),
    touchMonitors: (monitors, sinceDay) => {
      if (monitors.length > 0) mark({ every: false, monitors, sinceDay })
    },
    async settled() {
      await running
      if (pending) await flushNow()
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = undefined
      await running
    },
  } satisfies SummaryRefresher
}

/**
 * The first sweep, at start, recomputes every monitor and fills the daily copy of the last 90 days
 * (a new install's migration, results stored while no collector ran). Then every
 * GUARD_SUMMARY_SWEEP_SECONDS, the monitors whose 24-hour figures no refresh rewrote within that
 * time, so a window slides past old results even when no new ones arrive. Monitors that take results
 * are kept current by the refresher after each batch: sweeping them again would only repeat its
 * work, which at 10,000 monitors meant rewriting 30,000 rows a minute on every replica.
 */
export function scheduleSummarySweep(ctx: CollectorContext) {
  const refresher = createSummaryRefresher(ctx, 0)
  refresher.touchAll(utcDay(Date.now() - (DAILY_DAYS - 1) * 86_400_000))
  const sweepSeconds = ctx.env.GUARD_SUMMARY_SWEEP_SECONDS
  const sweepStale = async () => {
    try {
      const { rows } = await ctx.sql.query<{ id: string; organization_id: string }>(
        `SELECT DISTINCT s.monitor_id AS id, m.organization_id
           FROM monitoring.monitor_summary s JOIN monitoring.monitors m ON m.id = s.monitor_id
          WHERE s.refreshed_at < now() - make_interval(secs => $1)`,
        [sweepSeconds],
      )
      refresher.touchMonitors(
        rows.map((row) => ({ id: row.id, organizationId: row.organization_id })),
        utcDay(Date.now()),
      )
    } catch (error) {
      ctx.log.warn({ err: error }, 'finding monitors whose summaries are due failed: trying again at the next sweep')
    }
  }
  const interval = setInterval(() => void sweepStale(), sweepSeconds * 1000)
  return {
    refresher,
    async stop() {
      clearInterval(interval)
      await refresher.stop()
    },
  }
}
