import { GuardError } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { saveGrant } from './accounts.ts'
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
  const renew = async () => {
    try {
      grant = await provider.grant({ env: ctx.env }, account)
    } catch (error) {
      if (!(error instanceof ProviderStatusError)) throw error
      throw rejectedGrant(provider.id, error, options.linking)
    }
    account.accessToken = { value: grant.accessToken, expiresAt: grant.expiresAt }
    if (grant.secrets) account.secrets = grant.secrets
    if (options.persist && (grant.cache || grant.secrets)) {
      if (await saveGrant(ctx, account, grant)) account.tokenVersion += 1
    }
  }
  const get = (url: string, token: string) =>
    callProvider(
      { method: 'GET', url, headers: { authorization: `Bearer ${token}` } },
      httpOptionsOf(ctx.env, provider.id),
    )

  return {
    lastGrant: () => grant,
    async get(url, what) {
      if (!usable(account.accessToken)) await renew()
      try {
        return (await get(url, account.accessToken!.value)).json
      } catch (error) {
        if (!(error instanceof ProviderStatusError)) throw error
        if (error.status === 401 && !grant) {
          // A cached token the platform revoked or expired early: one fresh grant, one more try.
          await renew()
          try {
            return (await get(url, account.accessToken!.value)).json
          } catch (retried) {
            if (retried instanceof ProviderStatusError) throw statusError(provider.id, retried, what, options.linking)
            throw retried
          }
        }
        throw statusError(provider.id, error, what, options.linking)
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
