import { decryptSecret, encryptSecret, type HttpAuth, httpAuth } from '@guard/shared'

/** HKDF purpose of the key that seals monitor credentials, so it serves no other use of GUARD_SECRET_KEY. */
export const MONITOR_CREDENTIALS_PURPOSE = 'guard/monitor-credentials/v1'

export const sealCredentials = (key: Buffer, auth: HttpAuth): string => encryptSecret(key, JSON.stringify(auth))

export const openCredentials = (key: Buffer, sealed: string): HttpAuth =>
  httpAuth.parse(JSON.parse(decryptSecret(key, sealed)))
