import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { round2 } from '../results/window.ts'

/**
 * Counts by state-machine status and 24-hour averages across the organization's domains, in one
 * PostgreSQL statement over the state and the 24-hour summary (services/summaries): no ClickHouse,
 * however many domains. The average uptime is over domains with checks in the last 24 hours.
 */
export async function organizationDomainStats(ctx: CollectorContext, caller: Caller, organization?: string) {
  const organizationId = organizationScope(caller, organization)
  const { rows } = await ctx.sql.query<{
    total: number
    up: number
    down: number
    unknown: number
    checks: number
    rt_sum: number
    avg_uptime: number | null
  }>(
    `SELECT count(*)::int AS total,
            (count(*) FILTER (WHERE s.status = 'up'))::int AS up,
            (count(*) FILTER (WHERE s.status = 'down'))::int AS down,
            (count(*) FILTER (WHERE s.status IS NULL))::int AS unknown,
            coalesce(sum(w.checks), 0)::float8 AS checks,
            coalesce(sum(w.rt_sum), 0)::float8 AS rt_sum,
            (avg(round((w.checks - w.failures) * 100.0 / w.checks, 2)) FILTER (WHERE w.checks > 0))::float8 AS avg_uptime
       FROM monitoring.monitors d
       LEFT JOIN monitoring.monitor_state s ON s.monitor_id = d.id
       LEFT JOIN (
         -- One pass over the organization's summary rows, not a lookup per monitor.
         SELECT m.monitor_id, sum(m.checks) AS checks, sum(m.failures) AS failures, sum(m.rt_sum) AS rt_sum
           FROM monitoring.monitor_summary m JOIN monitoring.monitors o ON o.id = m.monitor_id
          WHERE o.organization_id = $1 AND o.kind = 'domain'
          GROUP BY m.monitor_id
       ) w ON w.monitor_id = d.id
      WHERE d.organization_id = $1 AND d.kind = 'domain'`,
    [organizationId],
  )
  const row = rows[0] ?? { total: 0, up: 0, down: 0, unknown: 0, checks: 0, rt_sum: 0, avg_uptime: null }
  return {
    total: row.total,
    up: row.up,
    down: row.down,
    unknown: row.unknown,
    avgResponseTime: row.checks ? round2(row.rt_sum / row.checks) : 0,
    avgUptime: row.avg_uptime === null ? 0 : round2(row.avg_uptime),
  }
}
