import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { round2, uptimeOf } from '../results/window.ts'
import { readLastDay } from '../summaries/read.ts'

/**
 * Counts by state-machine status and 24-hour averages across the organization's domains, read
 * from the 24-hour summary in PostgreSQL: two small queries for thousands of domains, no ClickHouse.
 */
export async function organizationDomainStats(ctx: CollectorContext, caller: Caller, organization?: string) {
  const organizationId = organizationScope(caller, organization)
  const { rows } = await ctx.sql.query<{ id: string; status: string | null }>(
    `SELECT d.id, s.status FROM monitoring.domains d
       LEFT JOIN monitoring.monitor_state s ON s.monitor_id = d.id
      WHERE d.organization_id = $1`,
    [organizationId],
  )
  const ids = rows.map((row) => row.id)
  const windows = await readLastDay(ctx.sql, ids)
  let checks = 0
  let rtSum = 0
  const uptimes: number[] = []
  for (const window of windows.values()) {
    checks += window.checks
    rtSum += window.rt_sum
    uptimes.push(uptimeOf(window))
  }
  return {
    total: rows.length,
    up: rows.filter((row) => row.status === 'up').length,
    down: rows.filter((row) => row.status === 'down').length,
    unknown: rows.filter((row) => row.status === null).length,
    avgResponseTime: checks ? round2(rtSum / checks) : 0,
    avgUptime: uptimes.length ? round2(uptimes.reduce((a, b) => a + b, 0) / uptimes.length) : 0,
  }
}
