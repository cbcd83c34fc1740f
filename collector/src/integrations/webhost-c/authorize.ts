import { createHash } from 'node:crypto'
import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../../services/access/organization.ts'
import type { AccountRecord } from '../accounts.ts'
import { httpOptionsOf, ProviderStatusError } from '../http.ts'
import { principalOf, verifyAndStore } from '../link-account.ts'
import { requestToken } from '../oauth.ts'
import { startWebhostCInput, type WebhostCCallbackQuery } from '../schemas.ts'
import { openValue, randomToken, sealValue, sha256 } from '../secrets.ts'
import { rejectedGrant } from '../session.ts'
import { webhostCClient, webhostCGrant } from './provider.ts'

const ID = 'webhost-c'
/** How long the user has to approve at webhost-c before the link must be started again. */
const AUTHORIZATION_TTL_MS = 10 * 60 * 1000
export const CALLBACK_PATH = '/api/webhost-c/callback'

export function redirectUri(ctx: CollectorContext): string {
  return (
    ctx.env.GUARD_WEBHOST_C_REDIRECT_URL ??
    `http://${ctx.env.GUARD_COLLECTOR_HOST}:${ctx.env.GUARD_COLLECTOR_PORT}${CALLBACK_PATH}`
  )
}

/**
 * Starts linking a webhost-c account: a single-use state (kept as SHA-256) and a PKCE verifier
 * (kept sealed) bound to the caller's organization, and the authorization URL to send the user to.
 */
export async function startWebhostCLink({
  ctx,
  caller,
  input,
  organization,
}: {
  ctx: CollectorContext
  caller: Caller
  input: unknown
  organization?: string | undefined
}) {
  startWebhostCInput.parse(input)
  const client = webhostCClient(ctx.env)
  const organizationId = organizationScope(caller, organization)
  const state = randomToken()
  const verifier = randomToken()
  const expiresAt = new Date(Date.now() + AUTHORIZATION_TTL_MS)
  const redirect = redirectUri(ctx)
  await ctx.sql.query("DELETE FROM monitoring.integration_authorizations WHERE expires_at < now() - interval '1 day'")
  await ctx.sql.query(
    `INSERT INTO monitoring.integration_authorizations
       (state_hash, organization_id, provider, principal, sealed_code_verifier, redirect_uri, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [sha256(state), organizationId, ID, principalOf(caller), await sealValue(ctx.env, verifier), redirect, expiresAt],
  )
  const url = new URL(ctx.env.GUARD_WEBHOST_C_AUTHORIZE_URL)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirect,
    scope: 'openid offline_access',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString()
  return { authorizationUrl: url.toString(), redirectUri: redirect, expiresAt: expiresAt.toISOString() }
}

interface PendingRow {
  organization_id: string
  principal: string
  sealed_code_verifier: string
  redirect_uri: string
  fresh: boolean
}

const refused = (message: string) => new GuardError('VALIDATION_ERROR', message)

/**
 * Where webhost-c sends the user's browser back. The state is spent by the first callback that
 * presents it, whatever happens next, so a replayed, forged, late or error callback links nothing.
 */
export async function completeWebhostCLink({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: WebhostCCallbackQuery
}): Promise<AccountRecord> {
  if (!input.state) throw refused('state: missing; start the link again with POST /api/webhost-c/accounts')
  const { rows } = await ctx.sql.query<PendingRow>(
    `UPDATE monitoring.integration_authorizations SET used_at = now()
     WHERE state_hash = $1 AND provider = $2 AND used_at IS NULL
     RETURNING organization_id, principal, sealed_code_verifier, redirect_uri, expires_at > now() AS fresh`,
    [sha256(input.state), ID],
  )
  const pending = rows[0]
  if (!pending) {
    throw refused('state: unknown or already used; start the link again with POST /api/webhost-c/accounts')
  }
  if (!pending.fresh) throw refused('state: expired; start the link again with POST /api/webhost-c/accounts')
  if (input.error) {
    const code = /^[a-z_]{1,64}$/.test(input.error) ? input.error : 'error'
    throw refused(`webhost-c did not authorize the link (${code}); nothing was stored`)
  }
  if (!input.code) throw refused('code: missing from the callback; nothing was stored')
  const client = webhostCClient(ctx.env)
  let answer: Awaited<ReturnType<typeof requestToken>>
  try {
    answer = await requestToken(
      ctx.env.GUARD_WEBHOST_C_TOKEN_URL,
      {
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: pending.redirect_uri,
        client_id: client.clientId,
        code_verifier: await openValue(ctx.env, pending.sealed_code_verifier),
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
      },
      httpOptionsOf(ctx.env, ID),
    )
  } catch (error) {
    if (error instanceof ProviderStatusError) throw rejectedGrant(ID, error, true)
    throw error
  }
  if (!answer.refresh_token) {
    throw new GuardError(
      'BAD_GATEWAY',
      'webhost-c issued no refresh token; its client must allow the offline_access scope. Nothing was stored',
    )
  }
  const grant = webhostCGrant(answer, answer.refresh_token)
  return verifyAndStore(
    ctx,
    ID,
    { organizationId: pending.organization_id, createdBy: pending.principal },
    { name: ID, config: {}, secrets: grant.secrets!, hintOf: 'refreshToken' },
    grant,
  )
}
