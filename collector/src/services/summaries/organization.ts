import type { Sql } from '@guard/shared'

/**
 * Rewrites monitoring.organization_summary for `organizationIds` (every organization when null) from
 * the per-monitor 24-hour copies, in the caller's transaction: once per refresh instead of once per
 * stats request. An organization left without figures loses its rows.
 */
export async function recomputeOrganizationSummaries(sql: Sql, organizationIds: string[] | null): Promise<void> {
  await sql.query('DELETE FROM monitoring.organization_summary WHERE $1::text[] IS NULL OR organization_id = ANY($1)', [
    organizationIds,
  ])
  await sql.query(
    `INSERT INTO monitoring.organization_summary
       (organization_id, kind, monitors_with_checks, uptime_sum, checks, failures, rt_sum, refreshed_at)
     SELECT organization_id, kind, count(*) FILTER (WHERE checks > 0),
            coalesce(sum(round((checks - failures) * 100.0 / checks, 2)) FILTER (WHERE checks > 0), 0),
            sum(checks), sum(failures), sum(rt_sum), now()
       FROM (SELECT m.organization_id, m.kind, sum(s.checks) AS checks, sum(s.failures) AS failures,
                    sum(s.rt_sum) AS rt_sum
               FROM monitoring.monitor_summary s JOIN monitoring.monitors m ON m.id = s.monitor_id
              WHERE $1::text[] IS NULL OR m.organization_id = ANY($1)
              GROUP BY m.organization_id, m.kind, s.monitor_id) AS per_monitor
      GROUP BY organization_id, kind`,
    [organizationIds],
  )
}
