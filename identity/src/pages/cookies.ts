import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { randomToken } from '../services/tokens/secret.ts'

export const SESSION_COOKIE = 'guard_session'
export const CSRF_COOKIE = 'guard_csrf'

const mac = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest('base64url')

const equal = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of request.headers.cookie?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}

/** `value.mac`: a cookie the browser cannot forge or alter without the server's key. */
export const signValue = (key: Buffer, value: string) => `${value}.${mac(key, value)}`

export function unsignValue(key: Buffer, signed: string | undefined): string | undefined {
  const dot = signed?.lastIndexOf('.') ?? -1
  if (!signed || dot <= 0) return undefined
  const value = signed.slice(0, dot)
  return equal(signed.slice(dot + 1), mac(key, value)) ? value : undefined
}

export function cookie(name: string, value: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${options.maxAgeSeconds}`]
  if (options.secure) parts.push('Secure')
  return parts.join('; ')
}

/**
 * CSRF protection by a signed double submit: the cookie holds a random value, each form carries
 * an HMAC of it. A cross-site page can neither read the cookie nor compute the HMAC.
 */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, key: Buffer, secure: boolean): string {
  let value = readCookie(request, CSRF_COOKIE)
  if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
    value = randomToken()
    reply.header('Set-Cookie', cookie(CSRF_COOKIE, value, { maxAgeSeconds: 24 * 60 * 60, secure }))
  }
  return mac(key, `csrf:${value}`)
}

export function csrfValid(request: FastifyRequest, key: Buffer, submitted: string | undefined): boolean {
  const value = readCookie(request, CSRF_COOKIE)
  return value !== undefined && submitted !== undefined && equal(submitted, mac(key, `csrf:${value}`))
}
