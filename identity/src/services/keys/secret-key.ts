import { derivePurposeKey } from '@guard/shared'

export { resolveSecretKey } from '@guard/shared'

export interface Secrets {
  /** AES-256-GCM key for signing keys at rest. */
  keyEncryption: Buffer
  /** HMAC-SHA256 key for session and CSRF cookies. */
  cookieSigning: Buffer
  /** AES-256-GCM key for upstream providers' client secrets at rest. */
  federationSecrets: Buffer
  /** AES-256-GCM key for TOTP secrets at rest. */
  factorEncryption: Buffer
}

export function deriveSecrets(secretKey: string): Secrets {
  const derive = (purpose: string) => derivePurposeKey(secretKey, `guard identity ${purpose}`)
  return {
    keyEncryption: derive('signing keys'),
    cookieSigning: derive('cookies'),
    federationSecrets: derive('federation client secrets'),
    factorEncryption: derive('second factors'),
  }
}
