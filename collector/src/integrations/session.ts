import { GuardError } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { renewedElsewhere, saveGrant } from './accounts.ts'
import { callProvider, httpOptionsOf, oauthErrorCode, ProviderStatusError } from './http.ts'
import type { IntegrationProvider, LinkedAccount, ProviderApi, TokenGrant } from './provider.ts'

/** A cached token this close to its expiry is renewed first rather than refused mid-listing. */
const EXPIRY_MARGIN_MS = 30_000

/** The platform refused credentials or a token: the caller's to fix, so a 400 naming the platform. */
export function rejectedCredentials(provider: string, error: ProviderStatusError, linking: boolean): GuardError {
  const what =
    error.status === 403
      ? `${provider} accepted the credentials but they lack permission to read what Guard lists`
      : linking
        ? `${provider} refused the credentials`
        : `${provider} no longer accepts the stored credentials; link the account again`
  return new GuardError('PROVIDER_CREDENTIALS_REJECTED', `${what} (HTTP ${error.status})`)
}

/** A token endpoint's refusal (RFC 6749 §5.2): 400/401 with an OAuth error code, quoted when plain. */
export function rejectedGrant(provider: string, error: ProviderStatusError, linking: boolean): GuardError {
  const code = oauthErrorCode(error.json)
  const what = linking
    ? `${provider} refused the credentials`
    : `${provider} no longer accepts the stored credentials; link the account again`
  return new GuardError('PROVIDER_CREDENTIALS_REJECTED', `${what} (${code ?? `HTTP ${error.status}`})`)
}

const usable = (token: LinkedAccount['accessToken']) =>
  token !== undefined && (token.expiresAt === null || token.expiresAt.getTime() - EXPIRY_MARGIN_MS > Date.now())

/**
 * Authorized reads for one account. A missing, expiring or refused token is renewed through the
 * provider's grant (client credentials, refresh token) once per read; a renewed token is sealed
 * and stored again when `persist` is set, which a link being verified does not need yet.
 */
export function providerApi(
  ctx: CollectorContext,
  provider: IntegrationProvider,
  account: LinkedAccount,
  options: { persist: boolean; linking: boolean },
): ProviderApi & { lastGrant(): TokenGrant | undefined } {
  let grant: TokenGrant | undefined
  let renewal: Promise<void> | undefined
  const renew = async () => {
    try {
      grant = await provider.grant({ env: ctx.env }, account)
    } catch (error) {
      if (!(error instanceof ProviderStatusError)) throw error
      // A rotating refresh token another replica spent a moment ago: its renewal is stored, use it.
      const newer = options.persist ? await renewedElsewhere(ctx, account) : undefined
      if (newer?.accessToken && usable(newer.accessToken)) {
        Object.assign(account, newer)
        return
      }
      throw rejectedGrant(provider.id, error, options.linking)
    }
    account.accessToken = { value: grant.accessToken, expiresAt: grant.expiresAt }
    if (grant.secrets) account.secrets = grant.secrets
    if (options.persist && (grant.cache || grant.secrets)) {
      if (await saveGrant(ctx, account, grant)) account.tokenVersion += 1
    }
  }
  /** Parallel reads that find the same token stale share one renewal instead of each asking for a token. */
  const renewUnless = (stale: string | undefined) => {
    if (account.accessToken && account.accessToken.value !== stale && current(account.accessToken)) {
      return Promise.resolve()
    }
    renewal ??= renew().finally(() => {
      renewal = undefined
    })
    return renewal
  }
  // A token granted during this request is used until it expires, however short its life.
  const current = (token: LinkedAccount['accessToken']) =>
    usable(token) ||
    (token !== undefined && token.value === grant?.accessToken && (token.expiresAt?.getTime() ?? Infinity) > Date.now())
  const get = (url: string, token: string) =>
    callProvider(
      { method: 'GET', url, headers: { authorization: `Bearer ${token}` } },
      httpOptionsOf(ctx.env, provider.id),
    )

  return {
    lastGrant: () => grant,
    async get(url, what) {
      if (!current(account.accessToken)) await renewUnless(account.accessToken?.value)
      const token = account.accessToken!.value
      try {
        return (await get(url, token)).json
      } catch (error) {
        if (!(error instanceof ProviderStatusError)) throw error
        // A cached token the platform revoked or expired early gets one renewal and one more try;
        // a token that is the stored secret itself (an API key) has nothing to renew.
        if (error.status !== 401 || grant?.cache === false) throw statusError(provider.id, error, what, options.linking)
        await renewUnless(token)
        try {
          return (await get(url, account.accessToken!.value)).json
        } catch (retried) {
          if (retried instanceof ProviderStatusError) throw statusError(provider.id, retried, what, options.linking)
          throw retried
        }
      }
    },
  }
}

function statusError(provider: string, error: ProviderStatusError, what: string, linking: boolean): GuardError {
  if (error.status === 401 || error.status === 403) return rejectedCredentials(provider, error, linking)
  if (error.status === 404) {
    return new GuardError(linking ? 'VALIDATION_ERROR' : 'BAD_GATEWAY', `${provider} does not know ${what} (HTTP 404)`)
  }
  return new GuardError('BAD_GATEWAY', `${provider} refused to list ${what} (HTTP ${error.status})`)
}
