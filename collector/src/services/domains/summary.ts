import type { Caller, CollectorContext } from '../../context.ts'
import { readMonitorStates } from '../monitor-state/read.ts'
import { averageOf, uptimeOf } from '../results/window.ts'
import { readDays, readLastDay } from '../summaries/read.ts'
import { findDomain } from './find.ts'

/**
 * Uptime over the last 24 hours and the last 7 and 30 UTC days (today included); average response
 * time over 24 hours; check counts over 30 days. All from the summaries the ingest keeps in
 * PostgreSQL (services/summaries), never from ClickHouse.
 */
export async function domainSummary(ctx: CollectorContext, caller: Caller, id: string) {
  const domain = await findDomain(ctx.sql, caller, id)
  const [day, week, month, states] = await Promise.all([
    readLastDay(ctx.sql, [id]),
    readDays(ctx.sql, [id], 7),
    readDays(ctx.sql, [id], 30),
    readMonitorStates(ctx.sql, [id]),
  ])
  const certificate = states.get(id)?.certificate
  return {
    domain: { id: domain.id, name: domain.name, url: domain.url },
    stats: {
      uptime24h: uptimeOf(day.get(id)),
      uptime7d: uptimeOf(week.get(id)),
      uptime30d: uptimeOf(month.get(id)),
      avgResponseTime: averageOf(day.get(id)),
      totalChecks: month.get(id)?.checks ?? 0,
      failedChecks: month.get(id)?.failures ?? 0,
    },
    certificate: certificate ? { valid: certificate.valid, expiresAt: certificate.expiresAt } : null,
  }
}
