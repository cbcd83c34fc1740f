import { GuardError, type HttpAuth, type HttpTarget, httpTarget, httpTargetProblems } from '@guard/shared'
import type { z } from 'zod'
import { type AuthType, type Credentials, HTTP_OPTION_NAMES, type HttpOptions } from './schemas.ts'

type Issues = z.core.$RefinementCtx

/** Adds the contract's rules between HTTP options as issues under `prefix` (e.g. protocolConfig). */
export function refineHttpOptions(
  options: Partial<HttpOptions> & { authType?: AuthType },
  ctx: Issues,
  prefix: string[] = [],
) {
  const auth = options.authType && options.authType !== 'none' ? ({ type: options.authType } as HttpAuth) : undefined
  for (const [path, message] of httpTargetProblems({ ...options, method: options.method ?? undefined, auth })) {
    ctx.addIssue({ code: 'custom', path: [...prefix, ...path], message })
  }
}

/**
 * The credentials for an auth type, or a 400 naming what is missing. `undefined` credentials with a
 * kept auth type mean "keep the stored ones" (`keep`).
 */
export function authFrom(
  authType: AuthType,
  credentials: Credentials | undefined,
  prefix = '',
): HttpAuth | null | 'keep' {
  const field = `${prefix}credentials`
  if (authType === 'none') {
    if (credentials) throw new GuardError('VALIDATION_ERROR', `${field}: authType none takes no credentials`)
    return null
  }
  if (!credentials) return 'keep'
  if (authType === 'basic') {
    if (credentials.token !== undefined) throw new GuardError('VALIDATION_ERROR', `${field}.token: only for bearer`)
    if (!credentials.username) throw new GuardError('VALIDATION_ERROR', `${field}.username: required for basic`)
    if (credentials.username.includes(':')) {
      throw new GuardError('VALIDATION_ERROR', `${field}.username: must not contain ":"`)
    }
    return { type: 'basic', username: credentials.username, password: credentials.password ?? '' }
  }
  if (credentials.username !== undefined || credentials.password !== undefined) {
    throw new GuardError('VALIDATION_ERROR', `${field}: bearer takes a token, not a username or password`)
  }
  if (!credentials.token) throw new GuardError('VALIDATION_ERROR', `${field}.token: required for bearer`)
  return { type: 'bearer', token: credentials.token }
}

/** The auth of a new monitor: credentials are required once an auth type is chosen. */
export function authForCreate(authType: AuthType, credentials: Credentials | undefined, prefix = '') {
  const auth = authFrom(authType, credentials, prefix)
  if (auth === 'keep') throw new GuardError('VALIDATION_ERROR', `${prefix}credentials: required for ${authType}`)
  return auth ?? undefined
}

/**
 * The auth after an update: a new type needs new credentials, new credentials alone keep the type.
 * `undefined` means unchanged.
 */
export function authForUpdate(
  current: { authType: AuthType; credentialsSet: boolean },
  changes: { authType?: AuthType | undefined; credentials?: Credentials | undefined },
  prefix = '',
): HttpAuth | null | undefined {
  if (changes.authType === undefined && changes.credentials === undefined) return undefined
  const authType = changes.authType ?? current.authType
  const auth = authFrom(authType, changes.credentials, prefix)
  if (auth !== 'keep') return auth
  if (authType === current.authType && current.credentialsSet) return undefined
  throw new GuardError('VALIDATION_ERROR', `${prefix}credentials: required for ${authType}`)
}

/** The defined HTTP options of an input, ready to spread into a target. */
export function pickHttpOptions(
  input: Partial<Record<keyof HttpOptions, unknown>>,
): Partial<Omit<HttpTarget, 'kind' | 'url'>> {
  const options: Record<string, unknown> = {}
  for (const name of HTTP_OPTION_NAMES) {
    if (input[name] !== undefined && input[name] !== null) options[name] = input[name]
  }
  // The values passed the API's schemas, which are the contract's; monitorInput parses them again.
  return options as Partial<Omit<HttpTarget, 'kind' | 'url'>>
}

/**
 * Applies an update's options to a stored HTTP target: an absent option stays, `null` removes it.
 * The result is checked against the contract again, so a change cannot combine into something the
 * probe would refuse (a body once the method becomes GET).
 */
export function mergeHttpTarget(
  current: HttpTarget,
  changes: Partial<Record<keyof HttpOptions | 'url', unknown>>,
  hasAuth: boolean,
  prefix: string[] = [],
): HttpTarget {
  const merged: Record<string, unknown> = { ...current }
  for (const name of [...HTTP_OPTION_NAMES, 'url'] as const) {
    const value = changes[name]
    if (value === null) delete merged[name]
    else if (value !== undefined) merged[name] = value
  }
  const parsed = httpTarget.safeParse({ ...merged, ...(hasAuth ? { auth: { type: 'bearer', token: 'x' } } : {}) })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new GuardError('VALIDATION_ERROR', `${[...prefix, ...issue.path].join('.')}: ${issue.message}`)
  }
  const { auth: _auth, ...target } = parsed.data
  return target
}

/** The options of a stored HTTP target as the API shows them (never its credentials). */
export function httpOptionsView(target: HttpTarget): Partial<HttpOptions> {
  return pickHttpOptions(target as Partial<Record<keyof HttpOptions, unknown>>) as Partial<HttpOptions>
}
