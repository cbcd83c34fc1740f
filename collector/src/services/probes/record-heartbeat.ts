import type { ProbeHeartbeat, Sql } from '@guard/shared'

/**
 * Keeps the newest heartbeat per probe instance. Every collector replica receives every heartbeat
 * (plain subject, no queue group); the upsert keeps the newest, so replicas agree whatever the order.
 */
export async function recordHeartbeat(sql: Sql, heartbeat: ProbeHeartbeat): Promise<void> {
  await sql.query(
    `INSERT INTO monitoring.probes AS p (location, instance, version, last_heartbeat_at, heartbeat)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (location, instance) DO UPDATE
       SET version = excluded.version, last_heartbeat_at = excluded.last_heartbeat_at, heartbeat = excluded.heartbeat
       WHERE p.last_heartbeat_at < excluded.last_heartbeat_at`,
    [heartbeat.location, heartbeat.instance, heartbeat.version, heartbeat.at, JSON.stringify(heartbeat)],
  )
}
