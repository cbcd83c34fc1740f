import { encryptSecret, newId, type Sql } from '@guard/shared'
import { checkIssuer } from './check-issuer.ts'
import {
  type FederationProvider,
  federationProviderInput,
  PROVIDER_COLUMNS,
  type ProviderRow,
  providerFromRow,
} from './provider.ts'

/** A provider of one organization, or of the installation when `organizationId` is null. */
export async function createFederationProvider(input: {
  sql: Sql
  secretKey: Buffer
  allowPrivate: boolean
  organizationId: string | null
  input: unknown
}): Promise<FederationProvider> {
  const provider = federationProviderInput.parse(input.input)
  await checkIssuer(provider.issuer, input.allowPrivate)
  const { rows } = await input.sql.query<ProviderRow>(
    `INSERT INTO identity.federation_providers
       (id, organization_id, name, issuer, client_id, client_secret_encrypted, scopes, allowed_domains, role_claim,
        role_map, default_role, jit_provisioning, link_by_email, required)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     RETURNING ${PROVIDER_COLUMNS}`,
    [
      newId(),
      input.organizationId,
      provider.name,
      provider.issuer,
      provider.client_id,
      encryptSecret(input.secretKey, provider.client_secret),
      provider.scopes,
      provider.allowed_domains,
      provider.role_claim,
      JSON.stringify(provider.role_map),
      provider.default_role,
      provider.jit_provisioning,
      provider.link_by_email,
      provider.required,
    ],
  )
  return providerFromRow(rows[0] as ProviderRow)
}
