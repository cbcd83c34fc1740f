import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'

export const organizationView = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    members: z.number().int(),
    plan: z.string().nullable().describe('catalog plan id; null: no limits'),
  })
  .meta({ id: 'AdminOrganization' })

export type OrganizationView = z.infer<typeof organizationView>

const SELECT = `SELECT o.id, o.slug, o.name, o.created_at, o.plan,
  (SELECT count(*) FROM identity.memberships m WHERE m.organization_id = o.id)::int AS members
  FROM identity.organizations o`

interface Row {
  id: string
  slug: string
  name: string
  created_at: Date
  members: number
  plan: string | null
}

const toView = (row: Row): OrganizationView => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  members: Number(row.members),
  plan: row.plan,
})

export async function listOrganizations(sql: Sql): Promise<OrganizationView[]> {
  const { rows } = await sql.query<Row>(`${SELECT} ORDER BY o.created_at, o.slug`)
  return rows.map(toView)
}

/** By id or by slug: operators type slugs, programs keep ids. */
export async function getOrganization(sql: Sql, idOrSlug: string): Promise<OrganizationView> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE o.id = $1 OR o.slug = $1`, [idOrSlug])
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', `organization ${idOrSlug} not found`)
  return toView(row)
}
