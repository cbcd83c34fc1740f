import { decodeEvent, type GuardEvent, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { hasPermission } from '../access/permissions.ts'

/** What an event's reader must hold to see it on the live stream. */
const NEEDS: Array<[prefix: string, permissions: string[]]> = [
  ['monitor.', ['domains:read', 'services:read']],
  ['certificate.', ['domains:read']],
  ['domain.', ['domains:read']],
  ['incident.', ['incidents:read']],
  ['device.', ['devices:read']],
  ['slo.', ['reports:read']],
]

export function mayRead(caller: Caller, type: string): boolean {
  const rule = NEEDS.find(([prefix]) => type.startsWith(prefix))
  if (!rule) return false
  return rule[1].some((permission) => hasPermission(caller.permissions, permission))
}

/** Parses a bus message into an event, or undefined for anything that is not a known v1 event. */
export function readEvent(data: Uint8Array): GuardEvent | undefined {
  try {
    return decodeEvent(data)
  } catch {
    return undefined
  }
}

/**
 * Events of the organization staged after `lastEventId` (the outbox keeps them a day), oldest
 * first, for a client that reconnects; undefined when that id is no longer known, so the client
 * reloads instead of trusting a gap.
 */
export async function eventsAfter(
  sql: Sql,
  organizationId: string,
  lastEventId: string,
  limit = 500,
): Promise<GuardEvent[] | undefined> {
  const { rows: anchor } = await sql.query<{ seq: string }>('SELECT seq FROM monitoring.event_outbox WHERE id = $1', [
    lastEventId,
  ])
  if (!anchor[0]) return undefined
  const { rows } = await sql.query<{ payload: string }>(
    `SELECT payload FROM monitoring.event_outbox
      WHERE seq > $1 AND payload::jsonb ->> 'organizationId' = $2
      ORDER BY seq LIMIT $3`,
    [anchor[0].seq, organizationId, limit],
  )
  return rows
    .map((row) => readEvent(new TextEncoder().encode(row.payload)))
    .filter((event): event is GuardEvent => event !== undefined)
}
