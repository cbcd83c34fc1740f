import type { Bus, Logger, Sql, Stoppable } from '@guard/shared'

interface OutboxRow {
  id: string
  subject: string
  payload: string
}

/**
 * Publishes staged events and marks them published. The event id is the message id, so a row
 * published twice (two replicas, or a crash before the mark) is dropped by the stream's
 * duplicate window, and consumers remember the ids they handled beyond it.
 */
export async function publishStagedEvents(
  deps: { sql: Sql; bus: Bus },
  selection: { ids: string[] } | { olderThanMs: number },
): Promise<number> {
  const { rows } =
    'ids' in selection
      ? selection.ids.length === 0
        ? { rows: [] as OutboxRow[] }
        : await deps.sql.query<OutboxRow>(
            `SELECT id, subject, payload FROM monitoring.event_outbox
              WHERE id = ANY($1) AND published_at IS NULL ORDER BY created_at, id`,
            [selection.ids],
          )
      : await deps.sql.query<OutboxRow>(
          `SELECT id, subject, payload FROM monitoring.event_outbox
            WHERE published_at IS NULL AND created_at < now() - make_interval(secs => $1::float8 / 1000)
            ORDER BY created_at, id LIMIT 1000`,
          [selection.olderThanMs],
        )
  if (rows.length === 0) return 0
  await Promise.all(
    rows.map((row) => deps.bus.publish(row.subject, new TextEncoder().encode(row.payload), { msgId: row.id })),
  )
  await deps.sql.query('UPDATE monitoring.event_outbox SET published_at = now() WHERE id = ANY($1)', [
    rows.map((row) => row.id),
  ])
  return rows.length
}

/**
 * Sweeps events a crash left unpublished (the inline publish after each commit handles the rest),
 * forgets published events after a day and consumers' processed ids after a week (redeliveries
 * come within the ack wait, duplicates within the stream's two-minute window).
 */
export function relayStagedEvents(deps: { sql: Sql; bus: Bus; log: Logger }, intervalMs = 2000): Stoppable {
  let running: Promise<void> = Promise.resolve()
  let ticks = 0
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        await publishStagedEvents(deps, { olderThanMs: intervalMs })
        // The clean-up scans; every 150th sweep (five minutes by default) is often enough.
        ticks += 1
        if (ticks % 150 !== 1) return
        await deps.sql.query(`DELETE FROM monitoring.event_outbox WHERE published_at < now() - interval '1 day'`)
      } catch (error) {
        deps.log.warn({ err: error }, 'event relay: publishing staged events failed, will retry')
      }
    })
  }, intervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
