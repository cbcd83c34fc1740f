import { GuardError, notFound, type Sql } from '@guard/shared'
import { readComponents } from '../find.ts'
import type { Locale } from '../i18n/locales.ts'

export interface PublicPageRow {
  id: string
  organization_id: string
  name: string
  slug: string
  locale: Locale
}

/** A public page by slug; a private or unknown one is the same 404 as its public answer. */
export async function findPublicPage(sql: Sql, slug: string): Promise<PublicPageRow> {
  const { rows } = await sql.query<PublicPageRow>(
    'SELECT id, organization_id, name, slug, locale FROM monitoring.status_pages WHERE slug = $1 AND is_public',
    [slug],
  )
  if (!rows[0]) throw notFound('Status page')
  return rows[0]
}

/** Component ids a subscriber may follow: those of the page, each once. */
export async function checkComponentIds(
  sql: Sql,
  page: { id: string; organization_id: string },
  componentIds: string[],
): Promise<string[]> {
  if (componentIds.length === 0) return []
  const known = new Set((await readComponents(sql, page)).map((component) => component.id))
  const unknown = componentIds.filter((id) => !known.has(id))
  if (unknown.length > 0) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `componentIds: ${unknown.length} of the ids are not components of the page`,
    )
  }
  return [...new Set(componentIds)]
}
