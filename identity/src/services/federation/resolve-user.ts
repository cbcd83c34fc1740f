import { newId, type Sql } from '@guard/shared'
import { z } from 'zod'
import { randomToken } from '../tokens/secret.ts'
import { createUser } from '../users/create.ts'
import { mapFederatedRole } from './map-role.ts'
import type { FederationProvider } from './provider.ts'

/** What the upstream said about the person: the ID token's claims merged with userinfo. */
export const federatedClaims = z.looseObject({
  sub: z.string().min(1).max(255),
  email: z.string().max(320).optional(),
  email_verified: z.boolean().optional(),
  name: z.string().max(200).optional(),
})

export type FederatedClaims = z.infer<typeof federatedClaims>

export type FederatedRefusal = 'domain' | 'unverified_email' | 'existing_account' | 'not_provisioned' | 'disabled'

export type FederatedOutcome =
  | { userId: string; how: 'linked' | 'linked_by_email' | 'provisioned' }
  | { refused: FederatedRefusal }

const domainOf = (email: string | undefined) => email?.toLowerCase().split('@')[1]

async function link(sql: Sql, provider: FederationProvider, claims: FederatedClaims, userId: string) {
  await sql.query(
    `INSERT INTO identity.federated_identities (issuer, subject, user_id, provider_id, email) VALUES ($1, $2, $3, $4, $5)`,
    [provider.issuer, claims.sub, userId, provider.id, claims.email ?? null],
  )
}

/** Adds the user to the provider's organization with the mapped role, unless already a member there. */
async function joinOrganization(
  sql: Sql,
  provider: FederationProvider,
  claims: Record<string, unknown>,
  userId: string,
) {
  if (!provider.organizationId) return
  await sql.query(
    `INSERT INTO identity.memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, user_id) DO NOTHING`,
    [newId(), provider.organizationId, userId, mapFederatedRole(provider, claims)],
  )
}

/**
 * Which Guard user the upstream's person is. A linked subject (issuer + sub) is its user; else,
 * only when the provider allows it and the upstream vouches for the address (email_verified),
 * the user with that e-mail is linked; else a new user is provisioned when the provider allows
 * it. An e-mail outside the allowed domains is refused before anything, and an existing account
 * is never taken over by an unverified or unlinkable address.
 */
export async function resolveFederatedUser(input: {
  sql: Sql
  provider: FederationProvider
  claims: FederatedClaims
}): Promise<FederatedOutcome> {
  const { sql, provider, claims } = input
  const email = claims.email?.trim()
  const domain = domainOf(email)
  if (provider.allowedDomains.length > 0 && (!domain || !provider.allowedDomains.includes(domain))) {
    return { refused: 'domain' }
  }
  const linked = await sql.query<{ user_id: string; disabled_at: Date | null }>(
    `UPDATE identity.federated_identities f SET last_used_at = now(), email = coalesce($3, f.email)
       FROM identity.users u WHERE u.id = f.user_id AND f.issuer = $1 AND f.subject = $2
     RETURNING f.user_id, u.disabled_at`,
    [provider.issuer, claims.sub, email ?? null],
  )
  const existing = linked.rows[0]
  if (existing) {
    if (existing.disabled_at) return { refused: 'disabled' }
    await joinOrganization(sql, provider, claims, existing.user_id)
    return { userId: existing.user_id, how: 'linked' }
  }
  const byEmail = email
    ? (
        await sql.query<{ id: string; disabled_at: Date | null }>(
          'SELECT id, disabled_at FROM identity.users WHERE lower(email) = lower($1)',
          [email],
        )
      ).rows[0]
    : undefined
  if (byEmail) {
    if (!provider.linkByEmail) return { refused: 'existing_account' }
    if (claims.email_verified !== true) return { refused: 'unverified_email' }
    if (byEmail.disabled_at) return { refused: 'disabled' }
    await link(sql, provider, claims, byEmail.id)
    await joinOrganization(sql, provider, claims, byEmail.id)
    return { userId: byEmail.id, how: 'linked_by_email' }
  }
  if (!provider.jitProvisioning || !email) return { refused: 'not_provisioned' }
  // The password is random and never shown: this person signs in through the upstream only.
  const user = await createUser(sql, { email, password: randomToken(), name: claims.name ?? email })
  await link(sql, provider, claims, user.id)
  await joinOrganization(sql, provider, claims, user.id)
  return { userId: user.id, how: 'provisioned' }
}
