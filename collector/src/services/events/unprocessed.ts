import type { Bus, Sql } from '@guard/shared'

/**
 * Which consumer handles which events: the activity feed all, notifications and status page
 * subscribers the incident ones, the engine the rest.
 */
const handled = (consumer: string) =>
  `EXISTS (SELECT 1 FROM monitoring.processed_events p WHERE p.event_id = o.id AND p.consumer = '${consumer}')`

const UNPROCESSED = `NOT ${handled('activity-feed')}
   OR (o.subject LIKE 'events.incident.%' AND NOT ${handled('notifications')})
   OR (o.subject LIKE 'events.incident.%' AND NOT ${handled('status-page-subscribers')})
   OR (o.subject NOT LIKE 'events.incident.%' AND NOT ${handled('incident-engine')})`

/** Staged events some consumer has not handled yet (published or not). */
export async function countUnprocessedEvents(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ pending: string }>(
    `SELECT count(*) AS pending FROM monitoring.event_outbox o WHERE ${UNPROCESSED}`,
  )
  return Number(rows[0]?.pending ?? 0)
}

/**
 * Publishes again, at start, every event of the last day that some consumer has not handled: a
 * bus that lost its stream (the in-process one when the process died) would otherwise never
 * deliver them. Consumers are idempotent, so one delivered twice changes nothing.
 */
export async function republishUnprocessedEvents(deps: { sql: Sql; bus: Bus }): Promise<number> {
  const { rows } = await deps.sql.query<{ id: string; subject: string; payload: string }>(
    `SELECT id, subject, payload FROM monitoring.event_outbox o
      WHERE created_at > now() - interval '1 day' AND (${UNPROCESSED})
      ORDER BY created_at, id LIMIT 100000`,
  )
  for (const row of rows) {
    await deps.bus.publish(row.subject, new TextEncoder().encode(row.payload), { msgId: row.id })
  }
  return rows.length
}
