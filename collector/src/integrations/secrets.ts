import { createHash, randomBytes } from 'node:crypto'
import { decryptSecret, derivePurposeKey, encryptSecret, resolveSecretKey } from '@guard/shared'
import type { CollectorEnv } from '../env.ts'

const PURPOSE = 'guard/collector/integration-secrets/v1'
const keys = new WeakMap<CollectorEnv, Promise<Buffer>>()

/**
 * The AES-256-GCM key for integration secrets: derived from GUARD_SECRET_KEY (or the data
 * directory's secret.key, the one identity uses), resolved once per configuration.
 */
function sealingKey(env: CollectorEnv): Promise<Buffer> {
  let key = keys.get(env)
  if (!key) {
    key = resolveSecretKey(env).then((secret) => derivePurposeKey(secret, PURPOSE))
    keys.set(env, key)
  }
  return key
}

export type Secrets = Record<string, string>

export async function sealSecrets(env: CollectorEnv, secrets: Secrets): Promise<string> {
  return encryptSecret(await sealingKey(env), JSON.stringify(secrets))
}

export async function openSecrets(env: CollectorEnv, sealed: string): Promise<Secrets> {
  return JSON.parse(decryptSecret(await sealingKey(env), sealed)) as Secrets
}

export async function sealValue(env: CollectorEnv, value: string): Promise<string> {
  return encryptSecret(await sealingKey(env), value)
}

export async function openValue(env: CollectorEnv, sealed: string): Promise<string> {
  return decryptSecret(await sealingKey(env), sealed)
}

/**
 * What a list may show of a secret: its last four characters when it is long enough that four
 * characters leave it unguessable, else nothing.
 */
export function secretHint(secret: string): string {
  return secret.length >= 16 ? `••••${secret.slice(-4)}` : '••••'
}

export const randomToken = () => randomBytes(32).toString('base64url')
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url')
