import type { Caller, CollectorContext } from '../../context.ts'
import { downtimeWithin } from '../monitor-state/incidents.ts'
import { aggregateWindow, averageOf, round2, uptimeOf } from '../results/window.ts'
import { readDays } from '../summaries/read.ts'
import { findDomain } from './find.ts'
import { type DomainStats, periodSeconds, type StatsPeriod } from './schemas.ts'

/** Periods read from the daily summary in PostgreSQL: the last 7, 30 and 90 UTC days, today included. */
const dailyPeriods: Partial<Record<StatsPeriod, number>> = { '7d': 7, '30d': 30, '90d': 90 }

/**
 * Counters and response-time figures over the period: 1h and 24h from raw results in ClickHouse,
 * 7d, 30d and 90d from the daily summary in PostgreSQL (p95 there is the checks-weighted mean of the
 * daily p95s); incidents and downtime from the state machine's incidents, clipped to the period.
 */
export async function domainStats(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  period: StatsPeriod,
): Promise<DomainStats> {
  const domain = await findDomain(ctx.sql, caller, id)
  const seconds = periodSeconds[period]
  const days = dailyPeriods[period]
  const [windows, downtime] = await Promise.all([
    days
      ? readDays(ctx.sql, [id], days)
      : aggregateWindow(ctx.timeseries, [domain.organizationId], [id], seconds, { percentile: true }),
    downtimeWithin(ctx.sql, id, seconds),
  ])
  const window = windows.get(id)
  const checks = window?.checks ?? 0
  return {
    domain_id: id,
    period,
    uptime_percentage: uptimeOf(window),
    total_checks: checks,
    successful_checks: checks - (window?.failures ?? 0),
    failed_checks: window?.failures ?? 0,
    average_response_time_ms: averageOf(window),
    min_response_time_ms: checks ? round2(window?.rt_min ?? 0) : null,
    max_response_time_ms: checks ? round2(window?.rt_max ?? 0) : null,
    p95_response_time_ms: checks ? round2(window?.p95 ?? 0) : null,
    incidents_count: downtime.incidents,
    total_downtime_seconds: downtime.downtimeSeconds,
    longest_incident_seconds: downtime.longestSeconds,
  }
}
