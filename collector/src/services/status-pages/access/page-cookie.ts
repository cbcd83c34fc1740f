import { createHmac, timingSafeEqual } from 'node:crypto'
import type { PageAccess } from './read-access.ts'

/** How long a sign-in grant handed from the collector's host to a custom domain may be used. */
const GRANT_SECONDS = 60

/**
 * A visitor's session for one private page, `<expiry>.<mac>`: the MAC covers the page id, its mode
 * and password hash and the expiry. Nothing is stored: a new password or another mode ends every
 * such session, and a value made for one page never opens another.
 */
const macOf = (key: Buffer, purpose: 'session' | 'grant', page: PageAccess, expires: number) =>
  createHmac('sha256', key)
    .update(`${purpose}|${page.id}|${page.mode}|${page.passwordHash ?? ''}|${expires}`)
    .digest('base64url')

const sign = (key: Buffer, purpose: 'session' | 'grant', page: PageAccess, seconds: number, now: number) => {
  const expires = Math.floor(now / 1000) + seconds
  return `${expires}.${macOf(key, purpose, page, expires)}`
}

function opens(key: Buffer, purpose: 'session' | 'grant', page: PageAccess, value: string | undefined, now: number) {
  const [expiresText, mac, ...rest] = value?.split('.') ?? []
  if (!expiresText || !mac || rest.length > 0 || !/^\d{1,12}$/.test(expiresText)) return false
  const expires = Number(expiresText)
  if (expires * 1000 <= now) return false
  const expected = Buffer.from(macOf(key, purpose, page, expires))
  const presented = Buffer.from(mac)
  return presented.length === expected.length && timingSafeEqual(presented, expected)
}

/** One name per page, which reveals nothing of its id: visitors of several pages keep one session each. */
export const pageCookieName = (key: Buffer, page: PageAccess) =>
  `guard_page_${createHmac('sha256', key).update(`name|${page.id}`).digest('base64url').slice(0, 12)}`

export const pageCookieValue = (key: Buffer, page: PageAccess, lifetimeSeconds: number, now = Date.now()) =>
  sign(key, 'session', page, lifetimeSeconds, now)

export const pageCookieOpens = (key: Buffer, page: PageAccess, value: string | undefined, now = Date.now()) =>
  opens(key, 'session', page, value, now)

/** A member's sign-in, carried in a redirect to the page's custom domain (whose cookies the collector's host cannot set). */
export const signInGrant = (key: Buffer, page: PageAccess, now = Date.now()) =>
  sign(key, 'grant', page, GRANT_SECONDS, now)

export const signInGrantOpens = (key: Buffer, page: PageAccess, value: string | undefined, now = Date.now()) =>
  opens(key, 'grant', page, value, now)
