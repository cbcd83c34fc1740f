import type { Sql } from '@guard/shared'
import { type FederationProvider, PROVIDER_COLUMNS, type ProviderRow, providerFromRow } from './provider.ts'

/**
 * The providers that the organizations of this user require instead of a password. Platform
 * administrators are exempt, so that no organization's setting can lock the operator out.
 */
export async function findRequiredProviders(sql: Sql, userId: string): Promise<FederationProvider[]> {
  const { rows } = await sql.query<ProviderRow>(
    `SELECT ${PROVIDER_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1p.$2')} FROM identity.federation_providers p
       JOIN identity.memberships m ON m.organization_id = p.organization_id AND m.user_id = $1
       JOIN identity.users u ON u.id = m.user_id
      WHERE p.required AND u.role <> 'admin'
      ORDER BY p.created_at, p.id`,
    [userId],
  )
  return rows.map(providerFromRow)
}
