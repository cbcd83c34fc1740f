import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Links of subscribers: `<subscriber id>.<secret>`. The confirmation secret is random and only its
 * hash is stored (cleared once used); the unsubscribe secret is an HMAC of the id under a key of its
 * own purpose, so nothing of it is stored and it dies with the subscriber row.
 */
const unsubscribeKey = (sealKey: Buffer) =>
  Buffer.from(hkdfSync('sha256', sealKey, '', 'status-page-unsubscribe-link', 32))

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url')

export function newConfirmSecret() {
  const secret = randomBytes(32).toString('base64url')
  return { secret, hash: hashSecret(secret) }
}

export const unsubscribeToken = (sealKey: Buffer, subscriberId: string) =>
  `${subscriberId}.${createHmac('sha256', unsubscribeKey(sealKey)).update(subscriberId).digest('base64url')}`

export function splitToken(token: string): { id: string; secret: string } | undefined {
  const [id, secret, extra] = token.split('.')
  if (!id || !secret || extra !== undefined) return undefined
  return { id, secret }
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function isUnsubscribeToken(sealKey: Buffer, token: string): string | undefined {
  const parts = splitToken(token)
  if (!parts) return undefined
  return sameSecret(token, unsubscribeToken(sealKey, parts.id)) ? parts.id : undefined
}

export const subscriberLink = (base: string, slug: string, action: 'confirm' | 'unsubscribe', token: string) =>
  `${base}/status/${slug}/${action}?token=${encodeURIComponent(token)}`
