import { encodeEvent, eventSubject, type GuardEvent, type Sql } from '@guard/shared'

/**
 * Writes events into the outbox inside the caller's transaction, so an event exists exactly when
 * the change it describes was committed. An id already staged is skipped: event ids are derived
 * from what happened, so a repeated decision stages nothing new. Returns the ids staged now.
 */
export async function stageEvents(tx: Sql, events: GuardEvent[]): Promise<string[]> {
  if (events.length === 0) return []
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO monitoring.event_outbox (id, subject, payload)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      events.map((event) => event.id),
      events.map((event) => eventSubject(event.type)),
      events.map((event) => new TextDecoder().decode(encodeEvent(event))),
    ],
  )
  return rows.map((row) => row.id)
}
