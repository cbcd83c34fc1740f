import { decryptSecret } from '@guard/shared'
import type { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { authorOf } from '../incidents/find.ts'
import { type deliveryStatus, listDeliveriesQuery } from './schemas.ts'
import { maskUrl } from './settings.ts'

/** Where a delivery went, masked: receiver URLs can carry credentials in their path or query. */
const shownTarget = (ctx: CollectorContext, channel: string, target: string) => {
  if (channel === 'email') return target
  return maskUrl(channel === 'slack' ? decryptSecret(ctx.sealKey, target) : target)
}

/** The caller's delivery log, newest first, each with its attempts. */
export async function listDeliveries(
  ctx: CollectorContext,
  caller: Caller,
  query: z.input<typeof listDeliveriesQuery>,
) {
  const input = listDeliveriesQuery.parse(query)
  const { rows } = await ctx.sql.query<{
    id: string
    channel: 'webhook' | 'slack' | 'email'
    target: string
    event_id: string
    event_type: string
    status: z.infer<typeof deliveryStatus>
    attempts: number
    next_attempt_at: Date
    last_status_code: number | null
    last_error: string | null
    created_at: Date
    delivered_at: Date | null
  }>(
    `SELECT id, channel, target, event_id, event_type, status, attempts, next_attempt_at, last_status_code, last_error,
            created_at, delivered_at
       FROM monitoring.notification_deliveries
      WHERE organization_id = $1 AND principal = $2 AND ($3::text IS NULL OR channel = $3)
        AND ($4::text IS NULL OR status = $4)
      ORDER BY created_at DESC, id DESC LIMIT $5`,
    [caller.organizationId, authorOf(caller), input.channel ?? null, input.status ?? null, input.limit],
  )
  const { rows: attempts } = await ctx.sql.query<{
    delivery_id: string
    attempt: number
    attempted_at: Date
    status_code: number | null
    error: string | null
    duration_ms: number
  }>(
    `SELECT delivery_id, attempt, attempted_at, status_code, error, duration_ms FROM monitoring.notification_attempts
      WHERE delivery_id = ANY($1) ORDER BY attempt`,
    [rows.map((row) => row.id)],
  )
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    target: shownTarget(ctx, row.channel, row.target),
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt:
      row.status === 'pending' || row.status === 'held' ? new Date(row.next_attempt_at).toISOString() : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
    deliveredAt: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
    log: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        at: new Date(attempt.attempted_at).toISOString(),
        statusCode: attempt.status_code,
        error: attempt.error,
        durationMs: attempt.duration_ms,
      })),
  }))
}
