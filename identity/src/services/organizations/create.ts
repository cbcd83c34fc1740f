import { GuardError, newId, type Sql } from '@guard/shared'

export async function createOrganization(sql: Sql, input: { name: string; slug: string }) {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.slug)) {
    throw new GuardError('VALIDATION_ERROR', 'slug must be lowercase letters, digits and dashes (at most 63)')
  }
  const id = newId()
  const { rows } = await sql.query(
    'INSERT INTO identity.organizations (id, slug, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id',
    [id, input.slug, input.name],
  )
  if (rows.length === 0) throw new GuardError('CONFLICT', `an organization with slug ${input.slug} already exists`)
  return { id, slug: input.slug, name: input.name }
}
