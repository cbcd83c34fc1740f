import { type DeviceEvent, deviceEventSubject, encodeDeviceEvent, type Sql } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/** Records a state-change event in the transaction that made the change (see publishDeviceEvents). */
export async function recordDeviceEvent(tx: Sql, event: DeviceEvent): Promise<void> {
  await tx.query(
    'INSERT INTO monitoring.device_event_outbox (id, subject, payload) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
    [event.id, deviceEventSubject(event.type), JSON.stringify(event)],
  )
}

/**
 * Publishes recorded events in the order they were made, each with its id as the message id, and
 * forgets each one once the bus stored it. Two replicas flushing at once publish an event under the
 * same id, which the bus drops and consumers ignore. Returns how many were published.
 */
export async function publishDeviceEvents(ctx: CollectorContext): Promise<number> {
  const { rows } = await ctx.sql.query<{ id: string; subject: string; payload: DeviceEvent }>(
    'SELECT id, subject, payload FROM monitoring.device_event_outbox ORDER BY created_at, id LIMIT 500',
  )
  let published = 0
  for (const row of rows) {
    await ctx.bus.publish(row.subject, encodeDeviceEvent(row.payload), { msgId: row.id })
    await ctx.sql.query('DELETE FROM monitoring.device_event_outbox WHERE id = $1', [row.id])
    published += 1
  }
  return published
}
