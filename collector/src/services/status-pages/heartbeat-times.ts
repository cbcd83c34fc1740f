import type { Sql } from '@guard/shared'
import type { PublicStatusPage } from './schemas.ts'

export type HeartbeatTimes = NonNullable<PublicStatusPage['components'][number]['heartbeat']>

/**
 * When each heartbeat of a page last reported and when it is next expected, from its run state in
 * PostgreSQL: what a visitor of a job's component wants to know, where a domain shows its latency.
 */
export async function readHeartbeatTimes(
  sql: Sql,
  organizationId: string,
  ids: string[],
): Promise<Map<string, HeartbeatTimes>> {
  const times = new Map<string, HeartbeatTimes>()
  if (ids.length === 0) return times
  const { rows } = await sql.query<{
    monitor_id: string
    enabled: boolean
    last_ping_at: Date | null
    next_due_at: Date
  }>(
    `SELECT h.monitor_id, m.enabled, h.last_ping_at, h.next_due_at
       FROM monitoring.heartbeats h JOIN monitoring.monitors m ON m.id = h.monitor_id
      WHERE h.monitor_id = ANY($1) AND m.organization_id = $2`,
    [ids, organizationId],
  )
  for (const row of rows) {
    times.set(row.monitor_id, {
      lastPingAt: row.last_ping_at ? new Date(row.last_ping_at).toISOString() : null,
      nextExpectedAt: row.enabled ? new Date(row.next_due_at).toISOString() : null,
    })
  }
  return times
}
