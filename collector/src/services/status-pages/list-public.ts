import type { CollectorContext } from '../../context.ts'
import { type PublicPageAnswer, readPublicStatusPage } from './read-public.ts'

/** Most public pages an anonymous overview reads: each is served from the public-page cache. */
const MAX_PAGES = 50

export interface PublicPageOfOrganization {
  organizationId: string
  page: PublicPageAnswer['page']
}

/**
 * What anybody may see without signing in: the public status pages (of one organization when
 * given), each as its visitors see it, oldest page first, at most 50.
 */
export async function listPublicStatusPages(
  ctx: CollectorContext,
  organizationId?: string,
): Promise<PublicPageOfOrganization[]> {
  const { rows } = await ctx.sql.query<{ organization_id: string; slug: string }>(
    `SELECT organization_id, slug FROM monitoring.status_pages
      WHERE is_public AND access_mode = 'public' AND ($1::text IS NULL OR organization_id = $1)
      ORDER BY created_at, id LIMIT ${MAX_PAGES}`,
    [organizationId ?? null],
  )
  const pages = await Promise.all(
    rows.map(async (row) => {
      try {
        return { organizationId: row.organization_id, page: (await readPublicStatusPage(ctx, row.slug)).page }
      } catch {
        // Unpublished between the two reads: no longer public.
        return undefined
      }
    }),
  )
  return pages.filter((page): page is PublicPageOfOrganization => page !== undefined)
}
