import type { Sql } from '@guard/shared'
import type { CollectorEnv } from '../../../env.ts'
import { SUBSCRIBER_CHANNELS, type SubscriberMessage } from './schemas.ts'

type QueueEnv = Pick<CollectorEnv, 'GUARD_DELIVERY_MAX_AGE_SECONDS' | 'GUARD_SUBSCRIBER_MAILS_PER_DOMAIN_SECOND'>

/**
 * Queues one message for every confirmed subscriber of the page who follows the whole page or one
 * of `componentIds`, in one statement (10,000 subscribers are one INSERT … SELECT). Mails are paced
 * per recipient domain: the n-th address of a domain is due n / GUARD_SUBSCRIBER_MAILS_PER_DOMAIN_SECOND
 * seconds later, so one provider never sees a burst. `key` makes a redelivered event queue nothing twice.
 */
export async function queueForSubscribers(
  tx: Sql,
  env: QueueEnv,
  page: { id: string; organizationId: string },
  componentIds: string[],
  key: string,
  message: SubscriberMessage,
): Promise<number> {
  const { affectedRows } = await tx.query(
    `INSERT INTO monitoring.notification_deliveries
       (id, organization_id, principal, event_id, event_type, channel, target, payload, purpose, status,
        next_attempt_at, give_up_at)
     SELECT gen_random_uuid()::text, $2, 'subscriber:' || s.id, $3, $4,
            CASE s.kind WHEN 'email' THEN $7 ELSE $8 END, s.target, $5, 'subscribers', 'pending',
            now() + make_interval(secs => due), now() + make_interval(secs => due + $6)
       FROM (SELECT s.*, (row_number() OVER (
                      PARTITION BY CASE s.kind WHEN 'email' THEN split_part(s.target, '@', 2) ELSE s.target END
                      ORDER BY s.id) - 1) / $9 AS due
               FROM monitoring.status_page_subscribers s
              WHERE s.page_id = $1 AND s.confirmed_at IS NOT NULL
                AND (cardinality(s.component_ids) = 0 OR s.component_ids && $10::text[])) s
     ON CONFLICT (event_id, principal, channel) DO NOTHING`,
    [
      page.id,
      page.organizationId,
      key,
      message.type,
      JSON.stringify(message),
      env.GUARD_DELIVERY_MAX_AGE_SECONDS,
      SUBSCRIBER_CHANNELS.email,
      SUBSCRIBER_CHANNELS.webhook,
      env.GUARD_SUBSCRIBER_MAILS_PER_DOMAIN_SECOND,
      componentIds,
    ],
  )
  return affectedRows
}

/** Queues the double opt-in mail of one subscriber. */
export async function queueConfirmation(
  tx: Sql,
  env: Pick<CollectorEnv, 'GUARD_DELIVERY_MAX_AGE_SECONDS'>,
  subscriber: { id: string; organizationId: string; email: string },
  key: string,
  message: SubscriberMessage,
) {
  await tx.query(
    `INSERT INTO monitoring.notification_deliveries
       (id, organization_id, principal, event_id, event_type, channel, target, payload, purpose, give_up_at)
     VALUES (gen_random_uuid()::text, $1, $2, $3, 'confirm', $4, $5, $6, 'subscribers', now() + make_interval(secs => $7))
     ON CONFLICT (event_id, principal, channel) DO NOTHING`,
    [
      subscriber.organizationId,
      `subscriber:${subscriber.id}`,
      key,
      SUBSCRIBER_CHANNELS.email,
      subscriber.email,
      JSON.stringify(message),
      env.GUARD_DELIVERY_MAX_AGE_SECONDS,
    ],
  )
}

/**
 * Removes subscribers; a trigger (migration 167) deletes every delivery still holding their
 * address, so nothing of them stays, whichever way a subscriber row goes.
 */
export async function forgetSubscribers(tx: Sql, ids: string[]) {
  if (ids.length === 0) return
  await tx.query('DELETE FROM monitoring.status_page_subscribers WHERE id = ANY($1)', [ids])
}
