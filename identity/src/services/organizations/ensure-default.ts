import { DEFAULT_ORGANIZATION, newId, type Sql } from '@guard/shared'
import { hashPassword, randomPassword } from '../users/password.ts'

export interface BootstrapAdmin {
  email: string
  /**
   * The plain password, only when generated on the start that created the admin. A password the
   * operator set (GUARD_ADMIN_PASSWORD) is theirs already and is never returned, so never shown.
   */
  password?: string
}

/**
 * On the first start, creates the default organization and its admin. Returns the admin's
 * credentials only when created now, so they are shown exactly once.
 */
export async function ensureDefaultOrganization(
  sql: Sql,
  admin: { email: string; password: string | undefined },
  plan: string | null = null,
): Promise<BootstrapAdmin | undefined> {
  return sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('guard.bootstrap-organization'))")
    const existing = await tx.query('SELECT 1 FROM identity.organizations WHERE id = $1', [DEFAULT_ORGANIZATION.id])
    if (existing.rows.length > 0) return undefined
    await tx.query('INSERT INTO identity.organizations (id, slug, name, plan) VALUES ($1, $2, $3, $4)', [
      DEFAULT_ORGANIZATION.id,
      DEFAULT_ORGANIZATION.slug,
      DEFAULT_ORGANIZATION.name,
      plan,
    ])
    const password = admin.password ?? randomPassword()
    const userId = newId()
    await tx.query(
      `INSERT INTO identity.users (id, email, password_hash, name, role) VALUES ($1, $2, $3, 'Administrator', 'admin')`,
      [userId, admin.email, await hashPassword(password)],
    )
    await tx.query(
      `INSERT INTO identity.memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, 'owner')`,
      [newId(), DEFAULT_ORGANIZATION.id, userId],
    )
    return admin.password === undefined ? { email: admin.email, password } : { email: admin.email }
  })
}
