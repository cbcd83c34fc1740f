import type { CollectorContext } from '../../context.ts'
import { invalidateReads } from '../read-cache/invalidate.ts'

/** Read-cache scope every change of a custom domain (or of the slug behind one) bumps, on every replica. */
export const CUSTOM_DOMAINS_SCOPE = 'status-page-domains'
/** Bounds what a missed invalidation notice (a bus outage) can leave stale. */
const REFRESH_MS = 30_000

interface DomainMap {
  slugs: Map<string, string>
  generation: number
  loadedAt: number
  loading?: Promise<void> | undefined
}

const maps = new WeakMap<CollectorContext, DomainMap>()

async function load(ctx: CollectorContext, map: DomainMap): Promise<void> {
  const generation = ctx.reads.generations([CUSTOM_DOMAINS_SCOPE])[0]!
  const { rows } = await ctx.sql.query<{ custom_domain: string; slug: string }>(
    `SELECT custom_domain, slug FROM monitoring.status_pages WHERE custom_domain IS NOT NULL`,
  )
  map.slugs = new Map(rows.map((row) => [row.custom_domain, row.slug]))
  map.generation = generation
  map.loadedAt = Date.now()
}

/**
 * Reads the custom domains into memory: routing looks them up synchronously, before any await. A
 * database away at start does not stop the collector: the first requests read them again.
 */
export async function loadCustomDomains(ctx: CollectorContext): Promise<void> {
  const map = maps.get(ctx) ?? { slugs: new Map(), generation: -1, loadedAt: 0 }
  maps.set(ctx, map)
  await load(ctx, map).catch((error: unknown) =>
    ctx.log.warn({ err: error }, 'custom status-page domains not read at start: read again on the next request'),
  )
}

/**
 * The slug of the page a custom host name serves, from memory. When another replica announced a
 * change (or 30 s passed) the map is read again in the background and this request uses the one
 * it has; the replica that made the change has already read it again.
 */
export function slugForHost(ctx: CollectorContext, host: string): string | undefined {
  const map = maps.get(ctx)
  if (!map) return undefined
  const stale =
    ctx.reads.generations([CUSTOM_DOMAINS_SCOPE])[0] !== map.generation || Date.now() - map.loadedAt > REFRESH_MS
  if (stale && !map.loading) {
    map.loading = load(ctx, map)
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'custom status-page domains not read again'))
      .finally(() => {
        map.loading = undefined
      })
  }
  return map.slugs.get(host)
}

/** After a write that changes which host serves which slug: here at once, elsewhere when the notice arrives. */
export async function customDomainsChanged(ctx: CollectorContext): Promise<void> {
  await invalidateReads({ ctx, organizationIds: [CUSTOM_DOMAINS_SCOPE] })
  const map = maps.get(ctx)
  // The write is done: a failed read leaves the map stale, and the next request reads it again.
  if (map) await load(ctx, map).catch(() => {})
}
