import {
  API_KEYS_SCOPE,
  DATA_SCOPES,
  decryptSecret,
  encryptSecret,
  type Logger,
  type Sql,
  signServiceToken,
} from '@guard/shared'
import * as oidc from 'openid-client'

export const CONSOLE_CLIENT_NAME = 'Guard web console'
/**
 * What the console asks for: who the user is, their organizations, and everything their role
 * allows there, minting API keys included (a first-party scope identity grants only to clients
 * like this one).
 */
export const CONSOLE_SCOPE = ['openid email profile organizations', ...DATA_SCOPES, API_KEYS_SCOPE].join(' ')

export interface ConsoleClientOptions {
  sql: Sql
  log: Logger
  /** Identity's issuer, as browsers reach it. */
  identityUrl: string
  /** Where this collector reaches the same identity, when not at its issuer URL (GUARD_IDENTITY_INTERNAL_URL). */
  internalUrl?: string | undefined
  secretKey: string
  sealKey: Buffer
  /** The collector's public base URL (GUARD_PUBLIC_URL, else its own address). */
  publicUrl: () => string
}

interface StoredClient {
  client_id: string
  client_secret_sealed: string
  redirect_uris: string[]
}

const callbackOf = (publicUrl: string) => `${publicUrl}/auth/callback`
const signedOutOf = (publicUrl: string) => `${publicUrl}/`

async function register(
  options: ConsoleClientOptions,
  clientId: string | undefined,
): Promise<{ client_id: string; client_secret?: string }> {
  const publicUrl = options.publicUrl()
  const response = await fetch(`${options.internalUrl ?? options.identityUrl}/api/v1/internal/first-party-clients`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await signServiceToken(options.secretKey, 'collector')}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({
      ...(clientId ? { client_id: clientId } : {}),
      name: CONSOLE_CLIENT_NAME,
      redirect_uris: [callbackOf(publicUrl)],
      post_logout_redirect_uris: [signedOutOf(publicUrl)],
    }),
    signal: AbortSignal.timeout(10_000),
  })
  if (response.status === 401) {
    throw new Error('identity refused the service token: identity and collector must share GUARD_SECRET_KEY')
  }
  if (!response.ok) throw new Error(`identity answered ${response.status} when registering the console client`)
  return (await response.json()) as { client_id: string; client_secret?: string }
}

/**
 * The collector's confidential client at identity, registered on first use (first start) and kept
 * in PostgreSQL with its secret sealed; when the collector's address changes, the new redirect
 * addresses are added to the same client. Replicas share the row.
 */
async function ensureClient(options: ConsoleClientOptions): Promise<{ clientId: string; clientSecret: string }> {
  const { sql, sealKey } = options
  const callback = callbackOf(options.publicUrl())
  const { rows } = await sql.query<StoredClient>(
    'SELECT client_id, client_secret_sealed, redirect_uris FROM monitoring.console_client',
  )
  const stored = rows[0]
  if (stored) {
    if (!stored.redirect_uris.includes(callback)) {
      await register(options, stored.client_id)
      await sql.query('UPDATE monitoring.console_client SET redirect_uris = array_append(redirect_uris, $1)', [
        callback,
      ])
    }
    return { clientId: stored.client_id, clientSecret: decryptSecret(sealKey, stored.client_secret_sealed) }
  }
  const created = await register(options, undefined)
  if (!created.client_secret) throw new Error('identity registered the console client without a secret')
  const { rows: inserted } = await sql.query<{ client_id: string }>(
    `INSERT INTO monitoring.console_client (client_id, client_secret_sealed, redirect_uris)
     VALUES ($1, $2, $3) ON CONFLICT (singleton) DO NOTHING RETURNING client_id`,
    [created.client_id, encryptSecret(sealKey, created.client_secret), [callback]],
  )
  // Another replica registered at the same moment: use its client (ours stays unused at identity).
  if (inserted.length === 0) return ensureClient(options)
  options.log.info({ clientId: created.client_id }, 'registered the web console as a client of identity')
  return { clientId: created.client_id, clientSecret: created.client_secret }
}

/**
 * The discovery document names identity's public endpoints, which browsers use (authorize,
 * sign-out) and the issuer its tokens carry; this collector's own requests to them (discovery,
 * token, refresh) go to the internal address instead.
 */
export function viaInternalUrl(identityUrl: string, internalUrl: string): oidc.CustomFetch {
  const publicOrigin = new URL(identityUrl).origin
  const internal = new URL(internalUrl)
  return (url, init) => {
    const target = new URL(url)
    if (target.origin === publicOrigin) {
      target.protocol = internal.protocol
      target.host = internal.host
    }
    return fetch(target, init)
  }
}

export interface ConsoleOidc {
  config: oidc.Configuration
  clientId: string
  callbackUrl: string
  signedOutUrl: string
}

/** The registered client and identity's discovered endpoints, resolved once and retried after a failure. */
export function consoleOidc(options: ConsoleClientOptions): () => Promise<ConsoleOidc> {
  let pending: Promise<ConsoleOidc> | undefined
  const resolve = async (): Promise<ConsoleOidc> => {
    const { clientId, clientSecret } = await ensureClient(options)
    const insecure = new URL(options.internalUrl ?? options.identityUrl).protocol === 'http:'
    const config = await oidc.discovery(
      new URL(options.identityUrl),
      clientId,
      undefined,
      oidc.ClientSecretPost(clientSecret),
      {
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        ...(options.internalUrl
          ? { [oidc.customFetch]: viaInternalUrl(options.identityUrl, options.internalUrl) }
          : {}),
      },
    )
    const publicUrl = options.publicUrl()
    return { config, clientId, callbackUrl: callbackOf(publicUrl), signedOutUrl: signedOutOf(publicUrl) }
  }
  return () => {
    pending ??= resolve().catch((error: unknown) => {
      pending = undefined
      throw error
    })
    return pending
  }
}
