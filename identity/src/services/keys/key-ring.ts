import type { Sql } from '@guard/shared'
import { decryptSecret } from '@guard/shared'
import { type CryptoKey, importJWK, importPKCS8, type JWTHeaderParameters } from 'jose'

/** Public members only: what JWKS serves and what verifies tokens. */
export interface PublishedKey {
  kty: string
  kid: string
  use: string
  alg: string
  n: string
  e: string
}

export interface KeyRing {
  /** The key new tokens are signed with. Read on every call, so a rotation by another process applies at once. */
  signing(): Promise<{ kid: string; key: CryptoKey }>
  /** The current and the previous public keys: what JWKS publishes and what verifies tokens. */
  published(): Promise<PublishedKey[]>
  /** A jose key resolver over the published keys. */
  verificationKey(header: JWTHeaderParameters): Promise<CryptoKey>
}

export function createKeyRing(sql: Sql, encryptionKey: Buffer): KeyRing {
  // Decrypting and importing cost more than the row lookup; keys never change under one kid.
  const privateKeys = new Map<string, Promise<CryptoKey>>()
  const publicKeys = new Map<string, Promise<CryptoKey>>()

  const published = async () => {
    const { rows } = await sql.query<{ public_jwk: PublishedKey }>(
      `SELECT public_jwk FROM identity.signing_keys WHERE status IN ('current', 'previous') ORDER BY created_at DESC`,
    )
    return rows.map((row) => row.public_jwk)
  }

  return {
    async signing() {
      const { rows } = await sql.query<{ kid: string; private_key_encrypted: string }>(
        `SELECT kid, private_key_encrypted FROM identity.signing_keys WHERE status = 'current'`,
      )
      const row = rows[0]
      if (!row) throw new Error('no current signing key; identity creates one at start')
      let key = privateKeys.get(row.kid)
      if (!key) {
        key = importPKCS8(decryptSecret(encryptionKey, row.private_key_encrypted), 'RS256')
        privateKeys.set(row.kid, key)
      }
      return { kid: row.kid, key: await key }
    },
    published,
    async verificationKey(header) {
      const jwk = (await published()).find((candidate) => candidate.kid === header.kid)
      if (!jwk) throw new Error('token signed with an unknown or retired key')
      let key = publicKeys.get(jwk.kid)
      if (!key) {
        key = importJWK(jwk, 'RS256') as Promise<CryptoKey>
        publicKeys.set(jwk.kid, key)
      }
      return key
    },
  }
}
