import { GuardError, type Sql } from '@guard/shared'
import { type FederationProvider, PROVIDER_COLUMNS, type ProviderRow, providerFromRow } from './provider.ts'

/**
 * A provider by id, within `organizationId` (null: the installation's) when given, so one
 * organization's owners never reach another's; undefined when there is none.
 */
export async function findFederationProvider(
  sql: Sql,
  id: string,
  scope?: { organizationId: string | null },
): Promise<FederationProvider | undefined> {
  const { rows } = await sql.query<ProviderRow>(
    `SELECT ${PROVIDER_COLUMNS} FROM identity.federation_providers
      WHERE id = $1 AND ($2::boolean IS FALSE OR organization_id IS NOT DISTINCT FROM $3)`,
    [id, scope !== undefined, scope?.organizationId ?? null],
  )
  const row = rows[0]
  return row ? providerFromRow(row) : undefined
}

export async function getFederationProvider(
  sql: Sql,
  id: string,
  scope: { organizationId: string | null },
): Promise<FederationProvider> {
  const provider = await findFederationProvider(sql, id, scope)
  if (!provider) throw new GuardError('NOT_FOUND', `federation provider ${id} not found`)
  return provider
}
