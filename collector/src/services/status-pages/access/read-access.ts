import type { CollectorContext } from '../../../context.ts'
import type { Locale } from '../i18n/locales.ts'
import type { AccessMode } from './schemas.ts'

/** What deciding who may see a published page needs; read by slug, before the page itself. */
export interface PageAccess {
  id: string
  organizationId: string
  slug: string
  mode: AccessMode
  passwordHash: string | null
  allowList: string[]
  customDomain: string | null
  /** The page's language: its gate and subscriber pages speak it. */
  locale: Locale
}

interface Row {
  id: string
  organization_id: string
  slug: string
  access_mode: AccessMode
  password_hash: string | null
  ip_allow_list: string[]
  custom_domain: string | null
  locale: Locale
}

interface Entry {
  access: PageAccess
  generation: number
  expires: number
}

const caches = new WeakMap<CollectorContext, Map<string, Entry>>()

/**
 * The access rule of a published page, or undefined for an unknown or unpublished slug (the page
 * routes then answer their usual 404). Kept per slug like the page itself: until a write to its
 * organization (every replica hears of it) and at most GUARD_STATUS_PAGE_CACHE_SECONDS, so a page
 * made private is private at once. Unknown slugs are not kept.
 */
export async function readPageAccess(ctx: CollectorContext, slug: string): Promise<PageAccess | undefined> {
  const ttl = ctx.env.GUARD_STATUS_PAGE_CACHE_SECONDS * 1000
  const cache = caches.get(ctx) ?? new Map<string, Entry>()
  caches.set(ctx, cache)
  const hit = cache.get(slug)
  const now = Date.now()
  if (hit && hit.expires > now && ctx.reads.generations([hit.access.organizationId])[0] === hit.generation) {
    return hit.access
  }
  // Taken before the read when the organization is known: a write racing the read leaves the entry stale.
  const before = hit ? ctx.reads.generations([hit.access.organizationId])[0] : undefined
  const { rows } = await ctx.sql.query<Row>(
    `SELECT id, organization_id, slug, access_mode, password_hash, ip_allow_list, custom_domain, locale
       FROM monitoring.status_pages WHERE slug = $1 AND is_public`,
    [slug],
  )
  const row = rows[0]
  if (!row) {
    cache.delete(slug)
    return undefined
  }
  const access: PageAccess = {
    id: row.id,
    organizationId: row.organization_id,
    slug: row.slug,
    mode: row.access_mode,
    passwordHash: row.password_hash,
    allowList: row.ip_allow_list,
    customDomain: row.custom_domain,
    locale: row.locale,
  }
  if (ttl > 0) {
    cache.set(slug, {
      access,
      generation:
        hit?.access.organizationId === row.organization_id && before !== undefined
          ? before
          : ctx.reads.generations([row.organization_id])[0]!,
      expires: now + ttl,
    })
    if (cache.size > 10_000) cache.delete(cache.keys().next().value as string)
  }
  return access
}
