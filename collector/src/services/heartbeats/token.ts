import { createHash, randomBytes } from 'node:crypto'
import { decryptSecret, encryptSecret } from '@guard/shared'

/** 192 random bits, URL-safe: unguessable, and short enough for a crontab line. */
export function generatePingToken(key: Buffer): { token: string; hash: string; sealed: string } {
  const token = randomBytes(24).toString('base64url')
  return { token, hash: hashPingToken(token), sealed: encryptSecret(key, token) }
}

/** Tokens are looked up by this hash, so no comparison ever runs over the secret itself. */
export const hashPingToken = (token: string): string => createHash('sha256').update(token).digest('hex')

export const openPingToken = (key: Buffer, sealed: string): string => decryptSecret(key, sealed)

/** What a ping URL's token looks like; anything else is not found without a database read. */
export const PING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/
