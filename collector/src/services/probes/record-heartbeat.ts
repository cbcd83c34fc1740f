import type { ProbeHeartbeat, Sql } from '@guard/shared'

/** A probe silent this long is forgotten: a restarted probe reports under a new instance id. */
const FORGET_AFTER_DAYS = 7

/**
 * Keeps the newest heartbeat per probe instance. Every collector replica receives every heartbeat
 * (plain subject, no queue group); the upsert keeps the newest, so replicas agree whatever the order.
 */
export async function recordHeartbeat(sql: Sql, heartbeat: ProbeHeartbeat): Promise<void> {
  const { rows } = await sql.query<{ inserted: boolean }>(
    `INSERT INTO monitoring.probes AS p (location, instance, version, last_heartbeat_at, heartbeat)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (location, instance) DO UPDATE
       SET version = excluded.version, last_heartbeat_at = excluded.last_heartbeat_at, heartbeat = excluded.heartbeat
       WHERE p.last_heartbeat_at < excluded.last_heartbeat_at
     RETURNING (xmax = 0) AS inserted`,
    [heartbeat.location, heartbeat.instance, heartbeat.version, heartbeat.at, JSON.stringify(heartbeat)],
  )
  // A new instance is the moment old ones may have gone for good; sweeping then keeps it rare.
  if (rows[0]?.inserted) {
    await sql.query(`DELETE FROM monitoring.probes WHERE last_heartbeat_at < now() - make_interval(days => $1)`, [
      FORGET_AFTER_DAYS,
    ])
  }
}
