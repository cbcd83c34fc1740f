import type { Sql } from '@guard/shared'
import { type FederationProvider, PROVIDER_COLUMNS, type ProviderRow, providerFromRow } from './provider.ts'

/**
 * The providers the sign-in page offers: the installation's always, an organization's once the
 * person has typed an e-mail of one of its allowed domains (an organization's provider is not
 * advertised to the world).
 */
export async function listSignInProviders(sql: Sql, email: string | undefined): Promise<FederationProvider[]> {
  const domain = email?.trim().toLowerCase().split('@')[1] ?? ''
  const { rows } = await sql.query<ProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM identity.federation_providers
      WHERE organization_id IS NULL OR ($1 <> '' AND $1 = ANY (allowed_domains))
      ORDER BY organization_id NULLS FIRST, created_at, id`,
    [domain],
  )
  return rows.map(providerFromRow)
}

/** Whether any organization has a provider; the page shows its single sign-on form only then. */
export async function hasOrganizationProviders(sql: Sql): Promise<boolean> {
  const { rows } = await sql.query(
    'SELECT 1 FROM identity.federation_providers WHERE organization_id IS NOT NULL LIMIT 1',
  )
  return rows.length > 0
}
