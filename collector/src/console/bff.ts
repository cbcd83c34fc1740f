import { decryptSecret, encryptSecret, GuardError, type Logger, type Sql, toLocationPath } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import * as oidc from 'openid-client'
import { cookie, readCookie } from './cookies.ts'
import { CONSOLE_SCOPE, type ConsoleOidc } from './identity-client.ts'
import {
  type ConsoleSession,
  claimRefresh,
  claimsOf,
  createSession,
  csrfMatches,
  csrfTokenOf,
  deleteSession,
  findSession,
  findSessionById,
  releaseRefresh,
  replaceTokens,
  type SessionTokens,
} from './sessions.ts'

export const SESSION_COOKIE = 'guard_console'
/** The public API the console calls: `/api/…`, and the API key routes, which have no /api prefix (spec). */
const CONSOLE_API = /^\/(api|api-keys)(\/|\?|$)/
const LOGIN_COOKIE = 'guard_console_login'
const LOGIN_SECONDS = 600
/** Refreshed this long before the access token expires, so a request never carries a dying token. */
const REFRESH_MARGIN_MS = 60_000
/** Longer than openid-client's 30 s request timeout, so a claim never lapses while its refresh can still land. */
const REFRESH_CLAIM_SECONDS = 35
const REFRESH_POLL_MS = 50
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export interface ConsoleAuthOptions {
  sql: Sql
  log: Logger
  /** Seals session tokens and the login state (derived from GUARD_SECRET_KEY for this purpose). */
  sealKey: Buffer
  /** Unset when the collector has no identity to sign in with (GUARD_IDENTITY_URL unset). */
  oidc: (() => Promise<ConsoleOidc>) | undefined
  publicUrl: () => string
  sessionSeconds: number
}

/** What the server keeps of a sign-in between /auth/login and /auth/callback, sealed in a cookie. */
interface LoginState {
  state: string
  nonce: string
  verifier: string
  returnTo: string
}

/**
 * Only paths of this console: never an open redirect to another site. It ends up in a Location
 * header, so characters beyond printable ASCII are percent-encoded.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return '/'
  if (/[\r\n]/.test(value) || value.startsWith('/auth/')) return '/'
  return toLocationPath(value)
}

/** Whether the session's access token carries every scope the console asks for (a token it cannot read is taken as is). */
function grantsConsoleScope(session: ConsoleSession): boolean {
  const { scope } = claimsOf(session.tokens.accessToken)
  if (typeof scope !== 'string') return true
  const granted = scope.split(' ')
  return CONSOLE_SCOPE.split(' ').every((wanted) => granted.includes(wanted))
}

const expiresAt = (tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers) =>
  new Date(Date.now() + (tokens.expiresIn() ?? 300) * 1000)

export function createConsoleAuth(options: ConsoleAuthOptions) {
  const secure = () => options.publicUrl().startsWith('https:')
  const refreshing = new Map<string, Promise<string | undefined>>()

  const sessionCookie = (value: string, maxAgeSeconds: number) =>
    cookie(SESSION_COOKIE, value, { maxAgeSeconds, secure: secure() })

  /**
   * Trades the refresh token for new tokens, one replica at a time per session: the others wait
   * for the claimant's tokens. Undefined when identity said no or another replica refreshed.
   */
  async function refresh(session: ConsoleSession): Promise<string | undefined> {
    const config = (await requireOidc()).config
    const { refreshToken } = session.tokens
    if (!refreshToken) return undefined
    if (!(await claimRefresh(options.sql, session, REFRESH_CLAIM_SECONDS))) {
      await refreshedElsewhere(session)
      return undefined
    }
    let tokens: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>
    try {
      tokens = await oidc.refreshTokenGrant(config, refreshToken)
    } catch (error) {
      if (error instanceof oidc.ResponseBodyError) {
        options.log.info({ error: error.error }, 'console session ended: identity refused its refresh token')
        await deleteSession(options.sql, session.idHash)
        return undefined
      }
      await releaseRefresh(options.sql, session)
      throw error
    }
    const next: SessionTokens = {
      accessToken: tokens.access_token,
      ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : { refreshToken }),
      ...(tokens.id_token
        ? { idToken: tokens.id_token }
        : session.tokens.idToken
          ? { idToken: session.tokens.idToken }
          : {}),
    }
    if (await replaceTokens(options.sql, options.sealKey, session, next, expiresAt(tokens))) return next.accessToken
    return undefined
  }

  /** Waits, within the claim's lifetime, until another replica's refresh stored new tokens or ended the session. */
  async function refreshedElsewhere(session: ConsoleSession): Promise<void> {
    const deadline = Date.now() + REFRESH_CLAIM_SECONDS * 1000
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, REFRESH_POLL_MS))
      const current = await findSessionById(options.sql, options.sealKey, session.idHash)
      if (!current || current.version !== session.version) return
    }
  }

  /** The session of the request's cookie with a fresh access token, or undefined. */
  async function liveSession(request: FastifyRequest): Promise<{ raw: string; session: ConsoleSession } | undefined> {
    const raw = readCookie(request, SESSION_COOKIE)
    if (!raw || raw.length > 100) return undefined
    const session = await findSession(options.sql, options.sealKey, raw)
    if (!session) return undefined
    if (!grantsConsoleScope(session)) {
      // Signed in before the console asked for what it asks now: refreshing keeps the old scopes, signing in again does not.
      await deleteSession(options.sql, session.idHash)
      return undefined
    }
    if (session.accessExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS) return { raw, session }
    let pending = refreshing.get(session.idHash)
    if (!pending) {
      pending = refresh(session).finally(() => refreshing.delete(session.idHash))
      refreshing.set(session.idHash, pending)
    }
    await pending
    // Whoever refreshed (this request, another one, another replica) stored the newest tokens.
    const current = await findSession(options.sql, options.sealKey, raw)
    if (!current || current.accessExpiresAt.getTime() <= Date.now()) return undefined
    return { raw, session: current }
  }

  async function requireOidc(): Promise<ConsoleOidc> {
    if (!options.oidc) {
      throw new GuardError(
        'SERVICE_UNAVAILABLE',
        'The console cannot sign in: this collector has no identity (set GUARD_IDENTITY_URL)',
      )
    }
    try {
      return await options.oidc()
    } catch (error) {
      options.log.warn({ err: error }, 'the console could not reach identity')
      throw new GuardError('SERVICE_UNAVAILABLE', 'Identity cannot be reached to sign in; try again shortly')
    }
  }

  /** The request comes from this console's own pages: same origin, not a cross-site form or fetch. */
  function sameOrigin(request: FastifyRequest): boolean {
    if (request.headers['sec-fetch-site'] === 'cross-site') return false
    const origin = request.headers.origin
    if (origin === undefined) return true
    const own = new Set([new URL(options.publicUrl()).origin, `${request.protocol}://${request.host}`])
    return own.has(origin)
  }

  /**
   * The BFF's half of every `/api` call from the console: a request with the session cookie and no
   * Authorization of its own gets the session's access token (refreshed when due), after a CSRF
   * check on every state-changing method. The request then takes the same route, authentication and
   * scoping as any API client's.
   */
  async function attachSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!CONSOLE_API.test(request.url) || request.headers.authorization) return
    if (!readCookie(request, SESSION_COOKIE)) return
    if (!SAFE_METHODS.has(request.method)) {
      const raw = readCookie(request, SESSION_COOKIE)!
      const token = request.headers['x-csrf-token']
      if (!sameOrigin(request) || !csrfMatches(options.sealKey, raw, typeof token === 'string' ? token : undefined)) {
        throw new GuardError(
          'FORBIDDEN',
          'Refused: a state-changing request with the console session must come from the console (X-CSRF-Token)',
        )
      }
    }
    const live = await liveSession(request)
    if (!live) {
      reply.header('Set-Cookie', sessionCookie('', 0))
      return
    }
    request.headers.authorization = `Bearer ${live.session.tokens.accessToken}`
    // The session outlives its access tokens (they are refreshed): what ends it is a sign-out.
    request.stillAuthorized = async () => (await findSession(options.sql, options.sealKey, live.raw)) !== undefined
  }

  async function startLogin(request: FastifyRequest, reply: FastifyReply, returnTo: string) {
    // No identity at all is a configuration, not an outage: the console page explains it.
    if (!options.oidc) return reply.redirect('/?signin=unconfigured', 302)
    const { config, callbackUrl } = await requireOidc()
    const login: LoginState = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      returnTo: safeReturnTo(returnTo),
    }
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: CONSOLE_SCOPE,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(login.verifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
    })
    reply.header(
      'Set-Cookie',
      cookie(LOGIN_COOKIE, encryptSecret(options.sealKey, JSON.stringify(login)), {
        maxAgeSeconds: LOGIN_SECONDS,
        secure: secure(),
        path: '/auth/',
      }),
    )
    request.log.debug('console sign-in started')
    return reply.redirect(url.href, 302)
  }

  /** Finishes the authorization code flow: tokens stay here, the browser gets a random session id. */
  async function finishLogin(request: FastifyRequest, reply: FastifyReply): Promise<{ returnTo: string } | string> {
    const sealed = readCookie(request, LOGIN_COOKIE)
    let login: LoginState
    try {
      login = JSON.parse(decryptSecret(options.sealKey, sealed ?? '')) as LoginState
    } catch {
      return 'This sign-in has expired or was started in another browser. Start it again.'
    }
    const { config, callbackUrl } = await requireOidc()
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>
    try {
      tokens = await oidc.authorizationCodeGrant(config, new URL(`${callbackUrl}${query}`), {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      })
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError) {
        return error.error_description ?? `Identity did not sign you in (${error.error}).`
      }
      if (error instanceof oidc.ResponseBodyError) return error.error_description ?? `Identity refused: ${error.error}`
      request.log.warn({ err: error }, 'console sign-in failed')
      return 'The sign-in could not be completed. Start it again.'
    }
    const claims = tokens.claims()
    const created = await createSession(options.sql, options.sealKey, {
      userId: claims?.sub ?? 'unknown',
      tokens: {
        accessToken: tokens.access_token,
        ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
        ...(tokens.id_token ? { idToken: tokens.id_token } : {}),
      },
      accessExpiresAt: expiresAt(tokens),
      lifetimeSeconds: options.sessionSeconds,
    })
    reply.header('Set-Cookie', [
      sessionCookie(created.raw, options.sessionSeconds),
      cookie(LOGIN_COOKIE, '', { maxAgeSeconds: 0, secure: secure(), path: '/auth/' }),
    ])
    return { returnTo: login.returnTo }
  }

  /** Who is signed in, their organizations (from the access token) and the session's CSRF token. */
  async function describe(request: FastifyRequest) {
    const live = await liveSession(request)
    if (!live) return { signedIn: false as const }
    const access = claimsOf(live.session.tokens.accessToken)
    const id = claimsOf(live.session.tokens.idToken)
    const organizations = (Array.isArray(access.organizations) ? access.organizations : [])
      .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
      .filter((item) => typeof item.id === 'string')
      .map((item) => ({
        id: item.id as string,
        name: typeof item.name === 'string' ? item.name : (item.id as string),
        ...(typeof item.slug === 'string' ? { slug: item.slug } : {}),
        ...(typeof item.role === 'string' ? { role: item.role } : {}),
      }))
    return {
      signedIn: true as const,
      user: {
        id: live.session.userId,
        ...(typeof id.email === 'string' ? { email: id.email } : {}),
        ...(typeof id.name === 'string' ? { name: id.name } : {}),
      },
      organizations,
      csrfToken: csrfTokenOf(options.sealKey, live.raw),
    }
  }

  /**
   * Ends the console session here (the row is deleted, the refresh token revoked at identity) and
   * sends the browser to identity's end-session endpoint, which ends identity's own session.
   */
  async function logout(request: FastifyRequest, reply: FastifyReply, csrf: string | undefined) {
    const raw = readCookie(request, SESSION_COOKIE)
    const session = raw ? await findSession(options.sql, options.sealKey, raw) : undefined
    if (!session || !raw) {
      reply.header('Set-Cookie', sessionCookie('', 0))
      return reply.redirect('/', 303)
    }
    if (!sameOrigin(request) || !csrfMatches(options.sealKey, raw, csrf)) {
      throw new GuardError('FORBIDDEN', 'Refused: sign-out must come from the console (CSRF token missing or wrong)')
    }
    await deleteSession(options.sql, session.idHash)
    reply.header('Set-Cookie', sessionCookie('', 0))
    let target = '/'
    try {
      const { config, signedOutUrl, clientId } = await requireOidc()
      if (session.tokens.refreshToken) {
        await oidc
          .tokenRevocation(config, session.tokens.refreshToken, { token_type_hint: 'refresh_token' })
          .catch((error: unknown) => request.log.warn({ err: error }, 'could not revoke the console refresh token'))
      }
      target = oidc.buildEndSessionUrl(config, {
        client_id: clientId,
        post_logout_redirect_uri: signedOutUrl,
        ...(session.tokens.idToken ? { id_token_hint: session.tokens.idToken } : {}),
      }).href
    } catch (error) {
      request.log.warn({ err: error }, 'identity unreachable at sign-out; the console session is ended anyway')
    }
    return reply.redirect(target, 303)
  }

  return { attachSession, startLogin, finishLogin, describe, logout }
}

export type ConsoleAuth = ReturnType<typeof createConsoleAuth>
