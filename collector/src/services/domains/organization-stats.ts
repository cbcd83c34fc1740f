import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { round2 } from '../results/window.ts'
import { tagCondition } from '../tags/match.ts'

interface Figures {
  monitors_with_checks: number
  uptime_sum: number
  checks: number
  rt_sum: number
}

/**
 * Counts by state-machine status (live) and 24-hour averages across the organization's domains (the
 * totals the summary refresher keeps, services/summaries/organization.ts): two small PostgreSQL
 * statements, no ClickHouse, however many domains. The average uptime is over domains with checks in
 * the last 24 hours; both averages are null while no domain has one.
 */
export async function organizationDomainStats(
  ctx: CollectorContext,
  caller: Caller,
  organization?: string,
  tags: string[] = [],
) {
  const organizationId = organizationScope(caller, organization)
  const tagged = tagCondition('d.tags', tags, 2)
  const [counts, totals] = await Promise.all([
    ctx.sql.query<{ total: number; up: number; down: number; unknown: number }>(
      `SELECT count(*)::int AS total,
              (count(*) FILTER (WHERE s.status = 'up'))::int AS up,
              (count(*) FILTER (WHERE s.status = 'down'))::int AS down,
              (count(*) FILTER (WHERE s.status IS NULL))::int AS unknown
         FROM monitoring.monitors d LEFT JOIN monitoring.monitor_state s ON s.monitor_id = d.id
        WHERE d.organization_id = $1 AND d.kind = 'domain' AND ${tagged.sql}`,
      [organizationId, ...tagged.parameters],
    ),
    tags.length === 0
      ? ctx.sql.query<Figures>(
          `SELECT monitors_with_checks, uptime_sum, checks::float8 AS checks, rt_sum
             FROM monitoring.organization_summary WHERE organization_id = $1 AND kind = 'domain'`,
          [organizationId],
        )
      : // The organization's totals know no tags: the same sums over the tagged domains' own summaries.
        ctx.sql.query<Figures>(
          `SELECT (count(*) FILTER (WHERE checks > 0))::int AS monitors_with_checks,
                  coalesce(sum(round((checks - failures) * 100.0 / checks, 2)) FILTER (WHERE checks > 0), 0)::float8
                    AS uptime_sum,
                  coalesce(sum(checks), 0)::float8 AS checks, coalesce(sum(rt_sum), 0)::float8 AS rt_sum
             FROM (SELECT sum(s.checks) AS checks, sum(s.failures) AS failures, sum(s.rt_sum) AS rt_sum
                     FROM monitoring.monitor_summary s JOIN monitoring.monitors d ON d.id = s.monitor_id
                    WHERE d.organization_id = $1 AND d.kind = 'domain' AND ${tagged.sql}
                    GROUP BY s.monitor_id) per_monitor`,
          [organizationId, ...tagged.parameters],
        ),
  ])
  const count = counts.rows[0] ?? { total: 0, up: 0, down: 0, unknown: 0 }
  const figures = totals.rows[0]
  return {
    total: count.total,
    up: count.up,
    down: count.down,
    unknown: count.unknown,
    avgResponseTime: figures?.checks ? round2(figures.rt_sum / figures.checks) : null,
    avgUptime: figures?.monitors_with_checks ? round2(figures.uptime_sum / figures.monitors_with_checks) : null,
  }
}
