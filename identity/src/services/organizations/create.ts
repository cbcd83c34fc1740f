import { GuardError, newId, type Sql } from '@guard/shared'

/** `plan` is a catalog plan id (checked by the caller, see requireCatalogPlan) or null for no limits. */
export async function createOrganization(sql: Sql, input: { name: string; slug: string; plan?: string | null }) {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.slug)) {
    throw new GuardError('VALIDATION_ERROR', 'slug must be lowercase letters, digits and dashes (at most 63)')
  }
  const id = newId()
  const { rows } = await sql.query(
    'INSERT INTO identity.organizations (id, slug, name, plan) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id',
    [id, input.slug, input.name, input.plan ?? null],
  )
  if (rows.length === 0) throw new GuardError('CONFLICT', `an organization with slug ${input.slug} already exists`)
  return { id, slug: input.slug, name: input.name, plan: input.plan ?? null }
}
