import type { Caller, CollectorContext } from '../../context.ts'
import { hashApiKey, looksLikeApiKey } from './secret.ts'
import { verifyApiKey, verifyApiKeyExpiring } from './verify.ts'

interface Verified {
  caller: Caller
  generations: number[]
  validUntil: number
}

/**
 * Verifies API keys through PostgreSQL (and identity, for a user's key) once, then from memory
 * while nothing in the key's organization was written (the read cache's generations: revoking or
 * changing a key is such a write, announced to every replica), for at most the read-cache TTL and
 * never past the key's expiry. Identity announces no membership change here, so a creator removed
 * from the organization or disabled loses their keys' access within that TTL. Entries are keyed by the key's hash, never the key itself. A verification that an
 * invalidation raced is used but not kept.
 */
export function createCachedApiKeyVerifier(ctx: CollectorContext) {
  const verified = new Map<string, Verified>()
  const ttlMs = ctx.env.GUARD_READ_CACHE_TTL_MS
  return async (presented: string): Promise<Caller> => {
    if (ttlMs === 0 || !looksLikeApiKey(presented)) return verifyApiKey({ ctx, input: { key: presented } })
    const hash = hashApiKey(presented)
    const now = Date.now()
    const entry = verified.get(hash)
    if (entry) {
      const current = ctx.reads.generations(entry.caller.organizationIds)
      if (now < entry.validUntil && current.every((value, index) => value === entry.generations[index])) {
        return entry.caller
      }
      verified.delete(hash)
    }
    const epoch = ctx.reads.epoch()
    const { caller, expiresAt } = await verifyApiKeyExpiring({ ctx, input: { key: presented } })
    if (ctx.reads.epoch() === epoch) {
      verified.set(hash, {
        caller,
        generations: ctx.reads.generations(caller.organizationIds),
        validUntil: Math.min(now + ttlMs, expiresAt ?? Number.POSITIVE_INFINITY),
      })
      if (verified.size > ctx.env.GUARD_READ_CACHE_MAX_ENTRIES) verified.delete(verified.keys().next().value as string)
    }
    return caller
  }
}
