import type { CollectorContext } from '../../context.ts'
import { hashPingToken } from './token.ts'

export interface PingTarget {
  monitorId: string
  organizationId: string
}

/** Tokens remembered at once; past that the oldest is forgotten (it costs one read to learn again). */
const MAX_ENTRIES = 100_000

/**
 * Token → heartbeat, remembered so a ping costs no database read. An entry holds while its
 * organization's read generation stays where it was: every API write of the organization
 * (regenerating a token, deleting a heartbeat) moves it, here at once and on other replicas when the
 * bus delivers the notice, so an old token answers 404 right away; the read cache's TTL bounds what
 * a missed notice can leave. Unknown tokens are not remembered: they are the ones never sent twice.
 */
export function createTokenLookup(ctx: Pick<CollectorContext, 'sql' | 'reads' | 'env'>) {
  const entries = new Map<string, PingTarget & { generations: number[]; expiresAt: number }>()
  return async (token: string, now = Date.now()): Promise<PingTarget | undefined> => {
    const hash = hashPingToken(token)
    const known = entries.get(hash)
    if (known && known.expiresAt > now) {
      const current = ctx.reads.generations([known.organizationId])
      if (current[0] === known.generations[0]) return known
    }
    entries.delete(hash)
    const { rows } = await ctx.sql.query<{ monitor_id: string; organization_id: string }>(
      `SELECT h.monitor_id, m.organization_id
         FROM monitoring.heartbeats h JOIN monitoring.monitors m ON m.id = h.monitor_id
        WHERE h.token_hash = $1`,
      [hash],
    )
    const row = rows[0]
    if (!row) return undefined
    // The organization is known only now: a write whose notice arrives between the read and this line
    // goes unseen until the TTL ends, a window of one turn of the event loop.
    const generations = ctx.reads.generations([row.organization_id])
    const target = { monitorId: row.monitor_id, organizationId: row.organization_id }
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string)
    entries.set(hash, { ...target, generations, expiresAt: now + ctx.env.GUARD_READ_CACHE_TTL_MS })
    return target
  }
}
