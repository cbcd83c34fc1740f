import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'

/** Platform roles: `admin` may use the admin API (with the `admin` scope); membership roles are per organization. */
export const USER_ROLES = ['user', 'admin'] as const

export const userView = z
  .object({
    id: z.string(),
    email: z.email(),
    name: z.string(),
    picture: z.string().nullable(),
    role: z.string(),
    disabled: z.boolean(),
    createdAt: z.iso.datetime(),
    organizations: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string(), role: z.string() })),
  })
  .meta({ id: 'AdminUser' })

export type UserView = z.infer<typeof userView>

interface Row {
  id: string
  email: string
  name: string
  picture: string | null
  role: string
  disabled_at: Date | null
  created_at: Date
  organizations: Array<{ id: string; slug: string; name: string; role: string }> | null
}

const SELECT = `SELECT u.id, u.email, u.name, u.picture, u.role, u.disabled_at, u.created_at,
  (SELECT coalesce(json_agg(json_build_object('id', o.id, 'slug', o.slug, 'name', o.name, 'role', m.role)
                            ORDER BY o.slug), '[]'::json)
     FROM identity.memberships m JOIN identity.organizations o ON o.id = m.organization_id
    WHERE m.user_id = u.id) AS organizations
  FROM identity.users u`

const toView = (row: Row): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  picture: row.picture,
  role: row.role,
  disabled: row.disabled_at !== null,
  createdAt: new Date(row.created_at).toISOString(),
  organizations: row.organizations ?? [],
})

export async function listUsers(sql: Sql, filter: { email?: string | undefined } = {}): Promise<UserView[]> {
  const { rows } = await sql.query<Row>(
    `${SELECT} WHERE ($1::text IS NULL OR lower(u.email) = lower($1)) ORDER BY u.created_at, u.id`,
    [filter.email ?? null],
  )
  return rows.map(toView)
}

export async function getUser(sql: Sql, id: string): Promise<UserView> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE u.id = $1`, [id])
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', `user ${id} not found`)
  return toView(row)
}
