import type { MemberRole, Sql } from '@guard/shared'

/**
 * A user's role in an organization as it is now, for the collector, which bounds the user's API
 * keys by it: null when the user is not a member, is disabled or no longer exists.
 */
export async function getCurrentMemberRole({
  ctx,
  input,
}: {
  ctx: { sql: Sql }
  input: { organizationId: string; userId: string }
}): Promise<MemberRole> {
  const { rows } = await ctx.sql.query<{ role: string }>(
    `SELECT m.role FROM identity.memberships m JOIN identity.users u ON u.id = m.user_id
      WHERE m.organization_id = $1 AND m.user_id = $2 AND u.disabled_at IS NULL`,
    [input.organizationId, input.userId],
  )
  return { ...input, role: rows[0]?.role ?? null }
}
