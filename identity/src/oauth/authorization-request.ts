import type { Sql } from '@guard/shared'
import { type Client, findClient } from '../services/clients/client.ts'
import { isRegisteredRedirectUri } from '../services/clients/redirect-uri.ts'
import { ACR_VALUES, type Acr } from '../services/factors/methods.ts'
import { CODE_CHALLENGE } from '../services/tokens/pkce.ts'
import { OAuthError } from './oauth-error.ts'
import { knownResource } from './resources.ts'
import type { AuthorizeQuery } from './schemas.ts'
import { DEFAULT_SCOPES, FIRST_PARTY_SCOPES, isScope, parseScope } from './scopes.ts'

export interface AuthorizationRequest {
  client: Client
  redirectUri: string
  scopes: string[]
  /** RFC 8707: the resource the token is for (its audience); undefined: the default audience. */
  resource: string | undefined
  state: string | undefined
  codeChallenge: string | undefined
  nonce: string | undefined
  /** prompt=none: answer login_required / consent_required instead of showing a page. */
  promptNone: boolean
  /** prompt=login: the user enters the password again, whatever session the browser has. */
  promptLogin: boolean
  /** prompt=consent: the consent page is shown, even when consent was given before. */
  promptConsent: boolean
  /** max_age: seconds since the user last entered the password after which they must again. */
  maxAge: number | undefined
  /** acr_values: the level the session must have reached; undefined when none asked is known. */
  acr: Acr | undefined
}

/**
 * Step one: who is asking and where the answer goes. A failure here must not redirect (RFC 6749
 * §4.1.2.1): the redirect target is unknown or untrusted, so the user gets an error page.
 */
export async function resolveClient(
  sql: Sql,
  query: AuthorizeQuery,
): Promise<{ client: Client; redirectUri: string } | { failure: string }> {
  const client = query.client_id ? await findClient(sql, query.client_id) : undefined
  if (!client) return { failure: 'The application asking you to sign in is not registered (unknown client_id).' }
  if (!query.redirect_uri || !isRegisteredRedirectUri(client, query.redirect_uri)) {
    return { failure: 'The application asked to send you to an address it has not registered (redirect_uri).' }
  }
  return { client, redirectUri: query.redirect_uri }
}

/** Step two: everything else. A failure here goes back to the client as `error=…`. */
export function validateAuthorization(
  client: Client,
  redirectUri: string,
  query: AuthorizeQuery,
  resources: readonly string[],
): AuthorizationRequest {
  if (query.response_type !== 'code') {
    throw new OAuthError('unsupported_response_type', 'response_type must be code')
  }
  const scopes =
    query.scope === undefined
      ? DEFAULT_SCOPES.filter((scope) => client.allowedScopes.includes(scope))
      : parseScope(query.scope)
  // A first-party scope is refused to any other client whatever it was registered with.
  const unsupported = scopes.filter(
    (scope) =>
      !isScope(scope) ||
      !client.allowedScopes.includes(scope) ||
      (FIRST_PARTY_SCOPES.includes(scope) && !client.firstParty),
  )
  if (unsupported.length > 0) throw new OAuthError('invalid_scope', `scope not allowed: ${unsupported.join(' ')}`)
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'no scope requested')
  const resource = knownResource(resources, query.resource)

  const challenge = query.code_challenge
  if (challenge !== undefined || query.code_challenge_method !== undefined) {
    // RFC 7636 defaults a missing method to plain, which offers no protection: only S256 passes.
    if (query.code_challenge_method !== 'S256') {
      throw new OAuthError(
        'invalid_request',
        'code_challenge_method must be S256 (plain and a missing method are refused)',
      )
    }
    if (challenge === undefined || !CODE_CHALLENGE.test(challenge)) {
      throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters)')
    }
  } else if (client.requirePkce) {
    throw new OAuthError('invalid_request', 'PKCE is required for this client: send code_challenge with S256')
  }
  const prompts = query.prompt?.split(' ').filter(Boolean) ?? []
  if (prompts.includes('none') && prompts.length > 1) {
    throw new OAuthError('invalid_request', 'prompt=none cannot be combined with other prompt values')
  }
  const unknownPrompt = prompts.find((prompt) => !PROMPTS.includes(prompt))
  if (unknownPrompt) throw new OAuthError('invalid_request', `unsupported prompt value: ${unknownPrompt}`)
  let maxAge: number | undefined
  if (query.max_age !== undefined) {
    if (!/^\d{1,9}$/.test(query.max_age)) {
      throw new OAuthError('invalid_request', 'max_age must be a non-negative integer (seconds)')
    }
    maxAge = Number(query.max_age)
  }
  return {
    client,
    redirectUri,
    scopes,
    resource,
    state: query.state,
    codeChallenge: challenge,
    nonce: query.nonce,
    promptNone: prompts.includes('none'),
    promptLogin: prompts.includes('login'),
    promptConsent: prompts.includes('consent'),
    maxAge,
    acr: requestedAcr(query.acr_values),
  }
}

/**
 * acr_values lists acceptable levels in order of preference (OIDC Core 3.1.2.1): any of them
 * satisfies the request, so the lowest known one is required; unknown values are ignored.
 */
export function requestedAcr(acrValues: string | undefined): Acr | undefined {
  const known = (acrValues?.split(' ') ?? []).filter((value): value is Acr =>
    (ACR_VALUES as readonly string[]).includes(value),
  )
  return known.sort((a, b) => ACR_VALUES.indexOf(a) - ACR_VALUES.indexOf(b))[0]
}

/** OIDC Core 3.1.2.1; select_account is accepted and means nothing here (one account per browser). */
export const PROMPTS = ['none', 'login', 'consent', 'select_account']

/**
 * Whether the session is too old for this request: prompt=login always, max_age when the password
 * was entered longer ago than that many seconds.
 */
export function needsFreshSignIn(authorization: AuthorizationRequest, authTime: Date, now = Date.now()): boolean {
  if (authorization.promptLogin) return true
  return authorization.maxAge !== undefined && (now - authTime.getTime()) / 1000 > authorization.maxAge
}

/**
 * The authorization request to come back to once the page has done its part: without the
 * prompt value it answered (and, after a sign-in, without max_age, just satisfied), so the
 * request does not send the user to the same page again.
 */
export function afterPrompt(requestUrl: string, answered: 'login' | 'consent'): string {
  const params = new URLSearchParams(requestUrl.split('?')[1] ?? '')
  const prompts = (params.get('prompt') ?? '').split(' ').filter((prompt) => prompt && prompt !== answered)
  if (prompts.length > 0) params.set('prompt', prompts.join(' '))
  else params.delete('prompt')
  if (answered === 'login') params.delete('max_age')
  return params.toString()
}

/** The client's redirect URI with the response added, `iss` always included (RFC 9207). */
export function authorizationResponseUrl(
  redirectUri: string,
  issuer: string,
  state: string | undefined,
  params: Record<string, string>,
): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  if (state !== undefined) url.searchParams.set('state', state)
  url.searchParams.set('iss', issuer)
  return url.href
}

export function errorResponseUrl(redirectUri: string, issuer: string, state: string | undefined, error: OAuthError) {
  return authorizationResponseUrl(redirectUri, issuer, state, {
    error: error.error,
    error_description: error.description,
  })
}
