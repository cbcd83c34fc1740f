import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

const PREFIX = 'gdt_'

/** 256 random bits, so a plain SHA-256 at rest leaves nothing to brute-force. */
export function generateDeviceToken(): { token: string; prefix: string; hash: string } {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`
  return { token, prefix: token.slice(0, PREFIX.length + 6), hash: hashDeviceToken(token) }
}

export const hashDeviceToken = (token: string): string => createHash('sha256').update(token).digest('hex')

export const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
