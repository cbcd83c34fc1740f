import type { Sql } from '@guard/shared'
import { GuardError } from '@guard/shared'
import { ZodError } from 'zod'
import { type CatalogDocument, catalogDocument } from './schema.ts'

/** Replaces the published catalog as a whole; plan ids must be unique within each list. */
export async function importCatalog(sql: Sql, input: unknown): Promise<{ updatedAt: string; plans: number }> {
  const document = parseCatalog(input)
  const { rows } = await sql.query<{ updated_at: Date }>(
    `INSERT INTO identity.catalog (id, document, updated_at) VALUES (true, $1, now())
     ON CONFLICT (id) DO UPDATE SET document = EXCLUDED.document, updated_at = EXCLUDED.updated_at
     RETURNING updated_at`,
    [JSON.stringify(document)],
  )
  return { updatedAt: rows[0]!.updated_at.toISOString(), plans: document.plans.length }
}

function parseCatalog(input: unknown): CatalogDocument {
  try {
    const document = catalogDocument.parse(input)
    for (const [list, items] of Object.entries({
      plans: document.plans,
      addons: document.addons,
      bundles: document.bundles ?? [],
    })) {
      const ids = items.map((item) => item.id)
      const duplicate = ids.find((id, index) => ids.indexOf(id) !== index)
      if (duplicate) throw new GuardError('VALIDATION_ERROR', `${list}: duplicate id '${duplicate}'`)
    }
    return document
  } catch (error) {
    if (error instanceof ZodError) {
      const detail = error.issues.map((issue) => `${issue.path.join('.') || 'catalog'}: ${issue.message}`).join('; ')
      throw new GuardError('VALIDATION_ERROR', detail)
    }
    throw error
  }
}
