import { type IdentityEnv, parseIdentityEnv, withLocalAdminApp } from '@guard/identity'
import { dataDirOwner, readCredentials } from '@guard/shared'
import { CommandFailed, connectionFailure, UnavailableError } from '../../cli-kit.ts'

export interface AdminCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Below /api/v1/admin, e.g. `/users`. */
  path: string
  query?: Record<string, string | undefined>
  body?: unknown
}

interface Answer {
  status: number
  body: unknown
}

/** Connection failures that mean "no identity listens there", as opposed to one that fails. */
const NOT_LISTENING = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

function url(base: string, call: AdminCall): string {
  const target = new URL(`${base.replace(/\/+$/, '')}/api/v1/admin${call.path}`)
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) target.searchParams.set(name, value)
  }
  return target.href
}

async function overHttp(base: string, token: string | undefined, call: AdminCall): Promise<Answer | undefined> {
  let response: Response
  try {
    response = await fetch(url(base, call), {
      method: call.method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      signal: AbortSignal.timeout(15_000),
    })
  } catch (error) {
    const code = connectionFailure(error)
    if (code && NOT_LISTENING.has(code)) return undefined
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
    if (!code && !timedOut) throw error
    throw new UnavailableError(
      `identity at ${base} did not answer (${code ?? 'timed out'}); set GUARD_IDENTITY_URL to where it runs`,
    )
  }
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

async function overStore(env: IdentityEnv, base: string, call: AdminCall): Promise<Answer> {
  // Without DATABASE_URL the store is PGlite in the data directory: never while another process holds it.
  const owner = env.DATABASE_URL ? undefined : dataDirOwner(env.GUARD_DATA_DIR)
  if (owner) {
    throw new UnavailableError(
      `identity does not answer at ${base}, and the data directory ${env.GUARD_DATA_DIR} is held by pid ${owner.pid} ` +
        `(\`${owner.command}\`). Wait until it has started, or set GUARD_IDENTITY_URL to where it listens.`,
    )
  }
  return withLocalAdminApp(env, async (app) => {
    const response = await app.inject({
      method: call.method,
      url: url('http://local', call).replace('http://local', ''),
      ...(call.body === undefined ? {} : { payload: call.body as Record<string, unknown> }),
    })
    return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null }
  })
}

/**
 * One admin API call: to the running identity (GUARD_IDENTITY_URL, else the address saved in
 * credentials.json, else the default local one) with the admin token (GUARD_ADMIN_TOKEN, else
 * credentials.json); only when nothing listens there, on the store directly, under its lock.
 * A refusal throws the problem's code and detail, printed as JSON on stderr with exit status 1.
 */
export async function callAdmin<T = unknown>(call: AdminCall): Promise<T> {
  const env = parseIdentityEnv()
  const saved = await readCredentials(env.GUARD_DATA_DIR)
  const base =
    env.GUARD_IDENTITY_URL ?? saved.identityUrl ?? `http://${env.GUARD_IDENTITY_HOST}:${env.GUARD_IDENTITY_PORT}`
  const token = process.env.GUARD_ADMIN_TOKEN ?? saved.adminToken
  const answer = (await overHttp(base, token, call)) ?? (await overStore(env, base, call))
  if (answer.status >= 200 && answer.status < 300) return answer.body as T
  const refusal = (answer.body ?? {}) as { code?: string; detail?: string; hint?: string }
  const hint =
    answer.status === 401 && !token
      ? `no admin token: set GUARD_ADMIN_TOKEN, or run where ${env.GUARD_DATA_DIR}/credentials.json is readable`
      : refusal.hint
  throw new CommandFailed(
    JSON.stringify({
      error: refusal.code ?? `HTTP_${answer.status}`,
      message: refusal.detail ?? `identity answered ${answer.status}`,
      ...(hint ? { hint } : {}),
    }),
  )
}
