import { encryptSecret, type Sql } from '@guard/shared'
import { federationProviderInput } from './provider.ts'

/** The installation's provider configured by GUARD_SSO_*: its id is fixed so each start updates the same row. */
export const ENV_PROVIDER_ID = 'env'

export interface SsoEnv {
  GUARD_SSO_ISSUER?: string | undefined
  GUARD_SSO_CLIENT_ID?: string | undefined
  GUARD_SSO_CLIENT_SECRET?: string | undefined
  GUARD_SSO_NAME?: string | undefined
  GUARD_SSO_ALLOWED_DOMAINS?: string[] | undefined
  GUARD_SSO_JIT?: boolean | undefined
  GUARD_SSO_LINK_BY_EMAIL?: boolean | undefined
}

/**
 * Makes the installation's environment-configured provider what GUARD_SSO_* says at start:
 * created or updated when they are set, removed when they are not (the accounts it linked stay
 * linked). Address rules are enforced at every request to the issuer, so a start never waits on DNS.
 */
export async function syncEnvFederationProvider(sql: Sql, secretKey: Buffer, env: SsoEnv): Promise<boolean> {
  const given = [env.GUARD_SSO_ISSUER, env.GUARD_SSO_CLIENT_ID, env.GUARD_SSO_CLIENT_SECRET]
  if (given.every((value) => value === undefined)) {
    await sql.query('DELETE FROM identity.federation_providers WHERE id = $1', [ENV_PROVIDER_ID])
    return false
  }
  if (given.some((value) => value === undefined)) {
    throw new Error('GUARD_SSO_ISSUER, GUARD_SSO_CLIENT_ID and GUARD_SSO_CLIENT_SECRET are set together or not at all')
  }
  const provider = federationProviderInput.parse({
    name: env.GUARD_SSO_NAME ?? 'single sign-on',
    issuer: env.GUARD_SSO_ISSUER,
    client_id: env.GUARD_SSO_CLIENT_ID,
    client_secret: env.GUARD_SSO_CLIENT_SECRET,
    allowed_domains: env.GUARD_SSO_ALLOWED_DOMAINS ?? [],
    jit_provisioning: env.GUARD_SSO_JIT ?? false,
    link_by_email: env.GUARD_SSO_LINK_BY_EMAIL ?? false,
  })
  await sql.query(
    `INSERT INTO identity.federation_providers
       (id, organization_id, name, issuer, client_id, client_secret_encrypted, scopes, allowed_domains,
        jit_provisioning, link_by_email)
     VALUES ($1, NULL, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
       client_secret_encrypted = EXCLUDED.client_secret_encrypted, allowed_domains = EXCLUDED.allowed_domains,
       jit_provisioning = EXCLUDED.jit_provisioning, link_by_email = EXCLUDED.link_by_email, updated_at = now()`,
    [
      ENV_PROVIDER_ID,
      provider.name,
      provider.issuer,
      provider.client_id,
      encryptSecret(secretKey, provider.client_secret),
      provider.scopes,
      provider.allowed_domains,
      provider.jit_provisioning,
      provider.link_by_email,
    ],
  )
  return true
}
