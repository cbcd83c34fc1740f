/**
 * Rendered GET responses of this replica, each stamped with the generation of every organization
 * it was read for. A write to an organization (an ingested batch, a changed monitor) bumps that
 * organization's generation on every replica (see invalidate.ts), so an entry read before the
 * write no longer matches and is recomputed. The TTL bounds what no write announces: sliding
 * windows moving with the clock and probes going offline.
 */
export interface CachedResponse {
  statusCode: number
  contentType: string
  payload: string
  /** A download's file name (CSV, reports): a hit must be saved under the same name as the miss. */
  contentDisposition?: string
}

interface Entry {
  response: CachedResponse
  generations: number[]
  expiresAt: number
}

export interface ReadCache {
  /** Current generations of `organizationIds`: take them before reading, store with them after. */
  generations(organizationIds: string[]): number[]
  get(key: string, organizationIds: string[], now?: number): CachedResponse | undefined
  /**
   * An entry that is current but for `soft` scopes (ingested results: the figures move on, nothing a
   * caller wrote is missing), served to requests that arrive while it is being recomputed.
   */
  stale(key: string, scopes: string[], soft: (scope: string) => boolean, now?: number): CachedResponse | undefined
  set(key: string, generations: number[], response: CachedResponse, now?: number): void
  invalidate(organizationIds: Iterable<string>): void
  /** Counts every invalidation of any organization: unchanged across a read means none raced it. */
  epoch(): number
  readonly size: number
}

export function createReadCache(options: { ttlMs: number; maxEntries: number }): ReadCache {
  const entries = new Map<string, Entry>()
  const generation = new Map<string, number>()
  let epoch = 0
  const generationsOf = (organizationIds: string[]) => organizationIds.map((id) => generation.get(id) ?? 0)
  return {
    generations: generationsOf,
    get(key, organizationIds, now = Date.now()) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (entry.expiresAt <= now) {
        entries.delete(key)
        return undefined
      }
      // A stale entry stays (until replaced or expired): `stale` may still serve it.
      const current = generationsOf(organizationIds)
      if (current.some((value, index) => value !== entry.generations[index])) return undefined
      // Re-inserting keeps Map order as recency order, so the first key is the least recently used.
      entries.delete(key)
      entries.set(key, entry)
      return entry.response
    },
    stale(key, scopes, soft, now = Date.now()) {
      const entry = entries.get(key)
      if (!entry || entry.expiresAt <= now) return undefined
      const current = generationsOf(scopes)
      const fresh = current.every((value, index) => value === entry.generations[index] || soft(scopes[index]!))
      return fresh ? entry.response : undefined
    },
    set(key, generations, response, now = Date.now()) {
      if (options.ttlMs <= 0) return
      // Least recently used first: expired answers nobody asked for again (a list page read once) go
      // now, so memory follows what is live rather than creeping up to maxEntries.
      for (const [oldest, entry] of entries) {
        if (entry.expiresAt > now) break
        entries.delete(oldest)
      }
      entries.delete(key)
      entries.set(key, { response, generations, expiresAt: now + options.ttlMs })
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string)
    },
    invalidate(organizationIds) {
      for (const id of organizationIds) generation.set(id, (generation.get(id) ?? 0) + 1)
      epoch++
    },
    epoch: () => epoch,
    get size() {
      return entries.size
    },
  }
}
