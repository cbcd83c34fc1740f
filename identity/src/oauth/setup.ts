import type { Logger, Sql } from '@guard/shared'
import { createTransport } from 'nodemailer'
import { ensureSigningKey } from '../services/keys/ensure.ts'
import { createKeyRing } from '../services/keys/key-ring.ts'
import { deriveSecrets, resolveSecretKey } from '../services/keys/secret-key.ts'
import { defaultThrottlePolicy } from '../services/sign-in/throttle.ts'
import type { OAuthContext } from './context.ts'
import { mcpResourcesOf } from './resources.ts'

/** Resolves the secret key, makes sure a signing key exists, and builds the OAuth context. */
export async function prepareOAuth(deps: {
  sql: Sql
  log: Logger
  env: {
    GUARD_SECRET_KEY?: string | undefined
    GUARD_DATA_DIR: string
    GUARD_SIGN_IN_DELAY_MS?: number
    GUARD_SIGN_IN_LOCK_SECONDS?: number
    GUARD_SMTP_URL?: string | undefined
    GUARD_SMTP_FROM?: string
    GUARD_MCP_RESOURCES?: string[]
    GUARD_COLLECTOR_PUBLIC_URL?: string | undefined
    GUARD_REGISTRATION_LIMIT?: number
    GUARD_ALLOW_PRIVATE_TARGETS?: boolean
  }
  issuer: string
}): Promise<OAuthContext> {
  const secrets = deriveSecrets(await resolveSecretKey(deps.env))
  await ensureSigningKey(deps.sql, secrets.keyEncryption)
  const keys = createKeyRing(deps.sql, secrets.keyEncryption)
  // Fails at start, not at the first sign-in, when GUARD_SECRET_KEY is not the one the keys were sealed with.
  await keys.signing()
  const throttle = defaultThrottlePolicy({
    delayMs: deps.env.GUARD_SIGN_IN_DELAY_MS ?? 1000,
    lockSeconds: deps.env.GUARD_SIGN_IN_LOCK_SECONDS ?? 900,
  })
  const smtp = deps.env.GUARD_SMTP_URL
  const mailer = smtp
    ? { from: deps.env.GUARD_SMTP_FROM ?? 'Guard <guard@localhost>', transport: createTransport(smtp) }
    : undefined
  const configured = deps.env.GUARD_MCP_RESOURCES ?? []
  const collector = deps.env.GUARD_COLLECTOR_PUBLIC_URL
  const resources = configured.length > 0 ? configured : collector ? mcpResourcesOf(collector) : []
  return {
    sql: deps.sql,
    log: deps.log,
    issuer: deps.issuer.replace(/\/+$/, ''),
    secrets,
    keys,
    throttle,
    mailer,
    resources,
    registrationLimit: deps.env.GUARD_REGISTRATION_LIMIT ?? 20,
    allowPrivateTargets: deps.env.GUARD_ALLOW_PRIVATE_TARGETS ?? false,
  }
}
