import { isIP } from 'node:net'
import { commonEnv, envTypes, keyEnv, parseEnv, storeEnv } from '@guard/shared'
import { z } from 'zod'
import { canonicalResource } from './oauth/resources.ts'

const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )

function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/')
  const family = isIP(address)
  if (!family || rest.length > 0) return false
  if (bits === undefined) return true
  const n = Number(bits)
  return Number.isInteger(n) && n >= 0 && n <= (family === 4 ? 32 : 128)
}

export const identityEnvSchema = z.object({
  ...commonEnv,
  DATABASE_URL: storeEnv.DATABASE_URL,
  GUARD_PGLITE_SHARED_BUFFERS: storeEnv.GUARD_PGLITE_SHARED_BUFFERS,
  GUARD_IDENTITY_HOST: z.string().min(1).default('127.0.0.1').describe('address identity listens on'),
  GUARD_IDENTITY_PORT: envTypes.port.default(4000).describe('port identity listens on'),
  GUARD_ADMIN_EMAIL: z.email().default('admin@guard.local').describe('the admin created on the first start'),
  /** A random password is generated on the first start when unset. */
  GUARD_ADMIN_PASSWORD: z
    .string()
    .min(12, 'must be at least 12 characters')
    .optional()
    .describe(
      "the admin's password (12 characters or more); when set it is never printed, logged or saved; default: random, printed once",
    ),
  /** The public issuer URL (what clients and the collector see); defaults to the listening address. */
  GUARD_IDENTITY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "identity's public issuer URL (`iss` of every token), what clients and the collector see; unset: the listening address",
    ),
  GUARD_SECRET_KEY: keyEnv.GUARD_SECRET_KEY,
  /** Comma-separated proxy addresses or CIDRs whose X-Forwarded-For names the client (rate limits). */
  GUARD_TRUSTED_PROXIES: commaList
    .pipe(z.array(z.string().refine(isAddressOrCidr, 'must list IP addresses or CIDR ranges, comma-separated')))
    .describe(
      "comma-separated proxy addresses or CIDRs whose `X-Forwarded-For` (and, at the collector, `X-Forwarded-Proto`) is believed: the public rate limits, status pages' IP allow-lists, `Secure` page cookies behind a TLS proxy",
    ),
  /**
   * The catalog plan organizations get when created without one (the default organization too).
   * Unset: no plan, so no limits, as a self-hosted Guard should be. Checked against the catalog at start.
   */
  GUARD_DEFAULT_PLAN: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'catalog plan id (`free`, `pro`, …) given to organizations created without one, the default organization included; checked against the catalog at start; unset: no plan, no limits',
    ),
  /** Base delay before answering a failed sign-in past the free attempts; doubles with each failure. */
  GUARD_SIGN_IN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(1000)
    .describe(
      'delay before answering the 6th failed sign-in of an account (11th of an address); doubles per failure, at most 8×',
    ),
  /** How long too many failed sign-ins lock an account (or a client IP). */
  GUARD_SIGN_IN_LOCK_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(900)
    .describe('how long 10 failed sign-ins lock an account (20 an address)'),
  /** SMTP server for invitation e-mails (smtp:// or smtps://, credentials in the URL); unset: the API returns the link. */
  GUARD_SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
    .optional()
    .describe(
      'SMTP server (`smtp://user:pass@host:587`, `smtps://…`) that e-mails invitation links; unset: the API answers the link',
    ),
  GUARD_SMTP_FROM: z.string().min(3).default('Guard <guard@localhost>').describe('sender of invitation e-mails'),
  /** Comma-separated browser origins, besides GUARD_IDENTITY_URL's and loopback, allowed to call the MCP server. */
  GUARD_MCP_ALLOWED_ORIGINS: commaList
    .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)))
    .describe('further browser origins allowed to call the platform MCP endpoint'),
  /**
   * Comma-separated RFC 8707 resources (absolute URLs) identity issues access tokens for: the
   * collector's MCP endpoints. Unset: `<GUARD_COLLECTOR_PUBLIC_URL>/mcp` and `/api/mcp`, and under
   * `guard start` those of the collector beside it.
   */
  GUARD_MCP_RESOURCES: commaList
    .pipe(
      z.array(
        z.string().transform((value, check) => {
          const canonical = canonicalResource(value)
          if (canonical) return canonical
          check.addIssue({
            code: 'custom',
            message: 'must list absolute http(s) URLs without a fragment, comma-separated',
          })
          return z.NEVER
        }),
      ),
    )
    .describe(
      'comma-separated RFC 8707 resources (absolute http(s) URLs, no fragment) identity issues access tokens for; any other `resource` is `invalid_target` (see [OAuth for assistants](identity.md#oauth-for-assistants-mcp-clients))',
    ),
  /**
   * The collector's public base URL, the same variable the collector reads: its `/mcp` and
   * `/api/mcp` are the default GUARD_MCP_RESOURCES.
   */
  GUARD_COLLECTOR_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "the collector's public base URL as assistants reach it: the MCP resources are `<url>/mcp` and `<url>/api/mcp` (token audiences, protected-resource metadata, `WWW-Authenticate`); identity issues tokens for those two resources when `GUARD_MCP_RESOURCES` is unset; unset: `http://<GUARD_COLLECTOR_HOST>:<GUARD_COLLECTOR_PORT>` (a wildcard host read as `127.0.0.1`)",
    ),
  /**
   * The web console's base URL, the same variable the collector reads: a browser that opens
   * identity's root is sent there. Default: GUARD_COLLECTOR_PUBLIC_URL, whose root serves the
   * console, and under `guard start` the collector beside identity.
   */
  GUARD_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "base URL of the web console, for the links in notifications (`…/incidents/{id}`), the console's sign-in callback and status page feeds (else the request's host); identity sends a browser that opens its root there (default for identity: `GUARD_COLLECTOR_PUBLIC_URL`, under `guard start` the collector beside it); unset: `GUARD_COLLECTOR_PUBLIC_URL`'s default: the collector's listening address, a wildcard host read as `127.0.0.1`",
    ),
  /** `1` lets upstream sign-in providers live on private or loopback addresses, as the collector's flag does. */
  GUARD_ALLOW_PRIVATE_TARGETS: envTypes.flag.describe(
    '`1` lets upstream OpenID Connect sign-in providers (federation) use private and loopback addresses, then also plain http://; unset: `0`, only public https:// issuers',
  ),
  /** The installation's upstream OpenID provider; the admin API adds more, and organizations their own. */
  GUARD_SSO_ISSUER: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .optional()
    .describe(
      'issuer URL of the installation\'s upstream OpenID Connect provider ("Sign in with …" on the sign-in page); with `GUARD_SSO_CLIENT_ID` and `GUARD_SSO_CLIENT_SECRET`; unset: none (the admin API can add one)',
    ),
  GUARD_SSO_CLIENT_ID: z.string().min(1).optional().describe("Guard's client id at `GUARD_SSO_ISSUER`"),
  GUARD_SSO_CLIENT_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe("Guard's client secret at `GUARD_SSO_ISSUER`; stored encrypted with `GUARD_SECRET_KEY`"),
  GUARD_SSO_NAME: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default('single sign-on')
    .describe('the provider\'s name on the sign-in button ("Sign in with <name>")'),
  GUARD_SSO_ALLOWED_DOMAINS: commaList
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,63}$/i, 'must list domain names, comma-separated')))
    .describe('comma-separated e-mail domains allowed to sign in through `GUARD_SSO_ISSUER`; unset: any'),
  GUARD_SSO_JIT: envTypes.flag.describe(
    '`1` creates a Guard user at the first sign-in through `GUARD_SSO_ISSUER` of someone unknown; unset: `0`, refused',
  ),
  GUARD_SSO_LINK_BY_EMAIL: envTypes.flag.describe(
    '`1` links a person signing in through `GUARD_SSO_ISSUER` to the Guard user of the same e-mail when the provider says `email_verified`; unset: `0`',
  ),
  /** Dynamic client registrations (POST /api/oauth/register) one client IP may make per hour. */
  GUARD_REGISTRATION_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe(
      'dynamic client registrations (`POST /api/oauth/register`) one client IP may make per hour, per identity replica',
    ),
})

export type IdentityEnv = z.infer<typeof identityEnvSchema>

export const parseIdentityEnv = (env: NodeJS.ProcessEnv = process.env): IdentityEnv =>
  parseEnv('identity', identityEnvSchema, env)
