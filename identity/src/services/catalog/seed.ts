import type { Sql } from '@guard/shared'
import { bundledCatalog } from './static.ts'

/** On the first start, publishes the bundled example catalog so /api/v1/plans has content from the database. */
export async function seedCatalog(sql: Sql): Promise<void> {
  await sql.query(
    'INSERT INTO identity.catalog (id, document, updated_at) VALUES (true, $1, now()) ON CONFLICT (id) DO NOTHING',
    [JSON.stringify(bundledCatalog.document)],
  )
}
