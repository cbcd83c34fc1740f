import type { Caller, CollectorContext } from '../../context.ts'
import { readMonitorStates } from '../monitor-state/read.ts'
import { aggregateWindow, averageOf, uptimeOf } from '../results/window.ts'
import { findDomain } from './find.ts'

const DAY = 86_400

/** Uptime over three windows; average response time over 24 hours; check counts over 30 days. */
export async function domainSummary(ctx: CollectorContext, caller: Caller, id: string) {
  const domain = await findDomain(ctx.sql, caller, id)
  const orgs = [domain.organizationId]
  const [day, week, month, states] = await Promise.all([
    aggregateWindow(ctx.timeseries, orgs, [id], DAY, { source: 'minute' }),
    aggregateWindow(ctx.timeseries, orgs, [id], 7 * DAY, { source: 'minute' }),
    aggregateWindow(ctx.timeseries, orgs, [id], 30 * DAY, { source: 'hour' }),
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
