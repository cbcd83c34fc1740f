import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

const LINK_DAYS = 7

interface LinkClaims {
  incidentId: string
  organizationId: string
  /** Who the link was sent to, recorded as the acknowledger: `channel:<name>`. */
  via: string
  expiresAt: number
}

// The link key is derived from the seal key under its own purpose: a leaked link signs nothing else.
const linkKey = (sealKey: Buffer) => Buffer.from(hkdfSync('sha256', sealKey, '', 'incident-acknowledge-link', 32))

const mac = (sealKey: Buffer, payload: string) => createHmac('sha256', linkKey(sealKey)).update(payload).digest()

/** A link token that acknowledges one incident, valid for 7 days; anyone holding it may use it, as with PagerDuty's. */
export function signAcknowledgeToken(sealKey: Buffer, claims: Omit<LinkClaims, 'expiresAt'>, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ ...claims, expiresAt: now + LINK_DAYS * 86_400_000 } satisfies LinkClaims),
  ).toString('base64url')
  return `${payload}.${mac(sealKey, payload).toString('base64url')}`
}

/** The claims of a genuine, unexpired token; undefined for anything else (compared in constant time). */
export function verifyAcknowledgeToken(sealKey: Buffer, token: string, now = Date.now()): LinkClaims | undefined {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined) return undefined
  const expected = mac(sealKey, payload)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims
    if (typeof claims.incidentId !== 'string' || typeof claims.expiresAt !== 'number' || claims.expiresAt < now) {
      return undefined
    }
    return claims
  } catch {
    return undefined
  }
}
