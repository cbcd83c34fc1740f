import type { GuardFastify } from '@guard/shared'
import { REGISTRATION_PATH } from './register.ts'

/**
 * What a browser-based OAuth client (the MCP Inspector, a single-page app) calls from its own
 * origin: metadata, keys, registration, token and revocation. None of them reads a cookie, so
 * any origin may, without credentials; the pages and the authorization endpoint get no CORS.
 */
export const CORS_PATHS = new Set([
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/jwks.json',
  REGISTRATION_PATH,
  '/api/oauth/token',
  '/api/oauth/revoke',
])

export function oauthCors(app: GuardFastify): void {
  app.addHook('onRequest', async (request, reply) => {
    if (CORS_PATHS.has(request.routeOptions.url ?? '')) reply.header('Access-Control-Allow-Origin', '*')
  })
  for (const path of CORS_PATHS) {
    app.options(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .status(204)
        .header('Access-Control-Allow-Methods', 'GET, POST')
        .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version')
        .header('Access-Control-Max-Age', '600')
        .send(),
    )
  }
}
