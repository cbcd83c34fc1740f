import { createHash, randomBytes } from 'node:crypto'

const PREFIX = 'guard_'

/** 256 random bits: a plain SHA-256 is enough at rest, since there is nothing to brute-force. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${PREFIX}${randomBytes(32).toString('base64url')}`
  return { key, prefix: key.slice(0, PREFIX.length + 6), hash: hashApiKey(key) }
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export const looksLikeApiKey = (value: string): boolean => value.startsWith(PREFIX)
