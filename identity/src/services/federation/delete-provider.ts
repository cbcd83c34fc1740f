import type { Sql } from '@guard/shared'
import { getFederationProvider } from './find-provider.ts'
import type { FederationProvider } from './provider.ts'

/** Removes a provider in scope; the accounts it linked stay linked, so a re-created one finds them by issuer. */
export async function deleteFederationProvider(input: {
  sql: Sql
  organizationId: string | null
  id: string
}): Promise<FederationProvider> {
  const provider = await getFederationProvider(input.sql, input.id, { organizationId: input.organizationId })
  await input.sql.query('DELETE FROM identity.federation_providers WHERE id = $1', [provider.id])
  return provider
}
