import { decryptSecret, encryptSecret, type HttpAuth, httpAuth } from '@guard/shared'
import { z } from 'zod'

/** HKDF purpose of the key that seals monitor credentials, so it serves no other use of GUARD_SECRET_KEY. */
export const MONITOR_CREDENTIALS_PURPOSE = 'guard/monitor-credentials/v1'

export const sealCredentials = (key: Buffer, auth: HttpAuth): string => encryptSecret(key, JSON.stringify(auth))

export const openCredentials = (key: Buffer, sealed: string): HttpAuth =>
  httpAuth.parse(JSON.parse(decryptSecret(key, sealed)))

/** A registry protocol's secrets, sealed in the same column as HTTP credentials. */
export const sealSecrets = (key: Buffer, secrets: Record<string, unknown>): string =>
  encryptSecret(key, JSON.stringify(secrets))

export const openSecrets = (key: Buffer, sealed: string): Record<string, unknown> =>
  z.record(z.string(), z.unknown()).parse(JSON.parse(decryptSecret(key, sealed)))
