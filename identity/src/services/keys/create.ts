import type { Sql } from '@guard/shared'
import { encryptSecret } from '@guard/shared'
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair } from 'jose'

/** A fresh RS256 key pair; its kid is the RFC 7638 thumbprint, so it names the key itself. */
export async function createSigningKey(tx: Sql, encryptionKey: Buffer): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true })
  const jwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(jwk)
  const publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e, kid, use: 'sig', alg: 'RS256' }
  await tx.query(
    `INSERT INTO identity.signing_keys (kid, status, public_jwk, private_key_encrypted) VALUES ($1, 'current', $2, $3)`,
    [kid, JSON.stringify(publicJwk), encryptSecret(encryptionKey, await exportPKCS8(privateKey))],
  )
  return kid
}
