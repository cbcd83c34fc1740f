import type { Sql } from '@guard/shared'
import { type FederationProvider, PROVIDER_COLUMNS, type ProviderRow, providerFromRow } from './provider.ts'

/** One organization's providers, or the installation's when `organizationId` is null. */
export async function listFederationProviders(sql: Sql, organizationId: string | null): Promise<FederationProvider[]> {
  const { rows } = await sql.query<ProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM identity.federation_providers
      WHERE organization_id IS NOT DISTINCT FROM $1 ORDER BY created_at, id`,
    [organizationId],
  )
  return rows.map(providerFromRow)
}
