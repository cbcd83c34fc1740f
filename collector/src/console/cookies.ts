import type { FastifyRequest } from 'fastify'

/** One cookie's value from the request's Cookie header (no library: fastify has no cookie parser here). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie
  if (!header) return undefined
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index < 0) continue
    if (part.slice(0, index).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(index + 1).trim())
    } catch {
      return undefined
    }
  }
  return undefined
}

export interface CookieOptions {
  maxAgeSeconds: number
  secure: boolean
  path?: string
}

/** HttpOnly and SameSite=Lax always: scripts never read it and cross-site subrequests never carry it. */
export function cookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ')
}
