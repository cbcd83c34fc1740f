import { encryptSecret, type Sql } from '@guard/shared'
import { checkIssuer } from './check-issuer.ts'
import { getFederationProvider } from './find-provider.ts'
import {
  type FederationProvider,
  federationProviderUpdate,
  PROVIDER_COLUMNS,
  type ProviderRow,
  providerFromRow,
} from './provider.ts'

/** Changes the given fields of a provider in scope; a new secret is sealed like the first. */
export async function updateFederationProvider(input: {
  sql: Sql
  secretKey: Buffer
  allowPrivate: boolean
  organizationId: string | null
  id: string
  input: unknown
}): Promise<FederationProvider> {
  const changes = federationProviderUpdate.parse(input.input)
  const current = await getFederationProvider(input.sql, input.id, { organizationId: input.organizationId })
  if (changes.issuer !== undefined) await checkIssuer(changes.issuer, input.allowPrivate)
  const { rows } = await input.sql.query<ProviderRow>(
    `UPDATE identity.federation_providers SET
       name = $2, issuer = $3, client_id = $4, client_secret_encrypted = $5, scopes = $6, allowed_domains = $7,
       role_claim = $8, role_map = $9, default_role = $10, jit_provisioning = $11, link_by_email = $12,
       required = $13, updated_at = now()
     WHERE id = $1 RETURNING ${PROVIDER_COLUMNS}`,
    [
      current.id,
      changes.name ?? current.name,
      changes.issuer ?? current.issuer,
      changes.client_id ?? current.clientId,
      changes.client_secret !== undefined
        ? encryptSecret(input.secretKey, changes.client_secret)
        : current.clientSecretEncrypted,
      changes.scopes ?? current.scopes,
      changes.allowed_domains ?? current.allowedDomains,
      changes.role_claim !== undefined ? changes.role_claim : current.roleClaim,
      JSON.stringify(changes.role_map ?? current.roleMap),
      changes.default_role ?? current.defaultRole,
      changes.jit_provisioning ?? current.jitProvisioning,
      changes.link_by_email ?? current.linkByEmail,
      changes.required ?? current.required,
    ],
  )
  return providerFromRow(rows[0] as ProviderRow)
}
