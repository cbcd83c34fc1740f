import type { Sql } from '@guard/shared'

export interface DowntimeFigures {
  incidents: number
  downtimeSeconds: number
  longestSeconds: number
}

/** Down incidents of the monitor overlapping the last `seconds`, each clipped to that window. */
export async function downtimeWithin(sql: Sql, monitorId: string, seconds: number): Promise<DowntimeFigures> {
  const { rows } = await sql.query<{ incidents: string; downtime: number | null; longest: number | null }>(
    `SELECT count(*) AS incidents,
            sum(extract(epoch FROM least(coalesce(resolved_at, now()), now()) - greatest(detected_at, w.since)))::float8 AS downtime,
            max(extract(epoch FROM least(coalesce(resolved_at, now()), now()) - greatest(detected_at, w.since)))::float8 AS longest
       FROM monitoring.incidents, (SELECT now() - make_interval(secs => $2) AS since) AS w
      WHERE monitor_id = $1 AND cause = 'down' AND coalesce(resolved_at, now()) > w.since`,
    [monitorId, seconds],
  )
  const row = rows[0]
  return {
    incidents: Number(row?.incidents ?? 0),
    downtimeSeconds: Math.max(0, Math.round(Number(row?.downtime ?? 0))),
    longestSeconds: Math.max(0, Math.round(Number(row?.longest ?? 0))),
  }
}
