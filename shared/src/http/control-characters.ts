import type { FastifyInstance, FastifyRequest } from 'fastify'
import { GuardError } from '../errors.ts'

// In a URL (path parameters, query): no C0 control character and no DEL; none has a meaning there,
// and CR/LF would end up in headers (a redirect's Location) where Node refuses them with a 500.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const IN_URL = /[\u0000-\u001f\u007f]/
// In a body: tab, line feed and carriage return are text; NUL cannot be stored by PostgreSQL, the
// rest have no place in anything Guard keeps.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

const MAX_DEPTH = 32

/**
 * The dotted path of the first string in `value` that `pattern` matches, or undefined. Bytes (a
 * body a route takes raw, like a ping's) are not text to check: walked as an object, each byte
 * would be a key, a million of them for a 1 MB body.
 */
export function firstMatch(value: unknown, pattern: RegExp, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return pattern.test(value) ? path : undefined
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH || ArrayBuffer.isView(value)) return undefined
  for (const [key, inner] of Object.entries(value)) {
    const where = `${path}.${key}`
    if (pattern.test(key)) return where
    const found = firstMatch(inner, pattern, where, depth + 1)
    if (found) return found
  }
  return undefined
}

/** Throws VALIDATION_ERROR (400 at both services' edges) naming where a control character was found. */
export function refuseControlCharacters(request: FastifyRequest): void {
  const where =
    firstMatch(request.params, IN_URL, 'params') ??
    firstMatch(request.query, IN_URL, 'querystring') ??
    firstMatch(request.body, IN_BODY, 'body')
  if (where) {
    throw new GuardError('VALIDATION_ERROR', `${where}: control characters are not allowed`)
  }
}

/**
 * Refuses control characters before any route validates or stores input: every route answers 400
 * instead of a 500 from PostgreSQL (NUL) or from a header (CR/LF).
 */
export function registerControlCharacterGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => refuseControlCharacters(request))
}
