import { z } from 'zod'

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
  .transform((url) => url.replace(/\/+$/, ''))

/**
 * Where the three integrations reach their platforms. The defaults are the real platforms'
 * addresses (README "Integrations"); tests and private installations point them elsewhere.
 */
export const integrationsEnv = {
  /** Milliseconds one provider request may take before it counts as failed. */
  GUARD_INTEGRATION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe('longest wait for one call to an integrated platform (a read that failed is tried once more)'),
  /** cloud-a's token service; the tenant goes in the path (`/<tenantId>/oauth2/v2.0/token`). */
  GUARD_CLOUD_A_TOKEN_URL: httpUrl
    .default('https://login.microsoftonline.com')
    .describe("cloud-a's token service (`/<tenantId>/oauth2/v2.0/token` is appended)"),
  /** cloud-a's resource management API. */
  GUARD_CLOUD_A_API_URL: httpUrl.default('https://management.azure.com').describe("cloud-a's resource management API"),
  /** webhost-c's authorization endpoint, where the user's browser is sent to approve the link. */
  GUARD_WEBHOST_C_AUTHORIZE_URL: httpUrl
    .default('https://vercel.com/oauth/authorize')
    .describe("webhost-c's OAuth authorization endpoint, where the user's browser is sent to approve the link"),
  /** webhost-c's token endpoint (authorization code with PKCE, refresh tokens). */
  GUARD_WEBHOST_C_TOKEN_URL: httpUrl
    .default('https://api.vercel.com/login/oauth/token')
    .describe("webhost-c's OAuth token endpoint (authorization code with PKCE, refresh tokens)"),
  /** webhost-c's REST API. */
  GUARD_WEBHOST_C_API_URL: httpUrl.default('https://api.vercel.com').describe("webhost-c's REST API"),
  /** The OAuth client the operator registered at webhost-c; unset: webhost-c linking is off (503). */
  GUARD_WEBHOST_C_CLIENT_ID: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('the OAuth client the operator registered at webhost-c; unset: webhost-c linking answers 503'),
  /** That client's secret, for a confidential client; a public client relies on PKCE alone. */
  GUARD_WEBHOST_C_CLIENT_SECRET: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("that client's secret, for a confidential client (a public client relies on PKCE alone)"),
  /**
   * The redirect URI registered with that client: this collector's public address followed by
   * `/api/webhost-c/callback`. Unset: the listening address's.
   */
  GUARD_WEBHOST_C_REDIRECT_URL: httpUrl
    .optional()
    .describe(
      "the redirect URI registered with that client: the collector's public address + `/api/webhost-c/callback`; unset: `http://<collector host>:<port>/api/webhost-c/callback`",
    ),
}
