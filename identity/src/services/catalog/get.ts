import type { Logger, Sql } from '@guard/shared'
import { type Catalog, type CatalogDocument, catalogDocument } from './schema.ts'
import { bundledCatalog } from './static.ts'

/**
 * The published catalog, or the bundled one with `source: static` when the database cannot be
 * read: the catalog is public marketing data, and a stale answer beats an error page.
 */
export async function getCatalog(sql: Sql, log: Logger): Promise<Catalog> {
  try {
    const { rows } = await sql.query<{ document: CatalogDocument; updated_at: Date }>(
      'SELECT document, updated_at FROM identity.catalog',
    )
    const row = rows[0]
    if (row) return { ...catalogDocument.parse(row.document), updatedAt: row.updated_at.toISOString(), source: 'db' }
    log.warn('no catalog published; answering with the bundled one')
  } catch (error) {
    log.warn({ err: error }, 'catalog unreadable; answering with the bundled one')
  }
  return { ...bundledCatalog.document, updatedAt: bundledCatalog.updatedAt, source: 'static' }
}
