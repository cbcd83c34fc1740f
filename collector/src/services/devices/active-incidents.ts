import type { Sql } from '@guard/shared'

/**
 * Open incidents of one organization that concern devices: raised for a device (offline, health)
 * or naming devices among those affected. Incidents are the incident engine's (issue 12); until
 * its table exists there are none to count.
 */
export async function countActiveDeviceIncidents(sql: Sql, organizationId: string): Promise<number> {
  const { rows } = await sql.query<{ present: boolean }>(
    "SELECT to_regclass('monitoring.incidents') IS NOT NULL AS present",
  )
  if (!rows[0]?.present) return 0
  const counted = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM monitoring.incidents
      WHERE organization_id = $1 AND resolved_at IS NULL
        AND (monitor_kind = 'device' OR cardinality(affected_devices) > 0)`,
    [organizationId],
  )
  return counted.rows[0]?.count ?? 0
}
