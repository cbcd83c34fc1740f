import type { GuardFastify } from '@guard/shared'
import { ACR_VALUES } from '../services/factors/methods.ts'
import type { OAuthContext } from './context.ts'
import { REGISTRATION_PATH } from './register.ts'
import { authorizationServerMetadata, discoveryDocument } from './schemas.ts'
import { OPENID_SCOPES, SUPPORTED_SCOPES } from './scopes.ts'

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none']

/** RFC 8414 metadata: what an OAuth client (an MCP client among them) needs; OIDC discovery extends it. */
export function oauthMetadata(ctx: OAuthContext) {
  return {
    issuer: ctx.issuer,
    authorization_endpoint: `${ctx.issuer}/api/oauth/authorize`,
    token_endpoint: `${ctx.issuer}/api/oauth/token`,
    jwks_uri: `${ctx.issuer}/.well-known/jwks.json`,
    registration_endpoint: `${ctx.issuer}${REGISTRATION_PATH}`,
    revocation_endpoint: `${ctx.issuer}/api/oauth/revoke`,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    authorization_response_iss_parameter_supported: true,
    // RFC 9728 §4: the RFC 8707 resources this server issues tokens for.
    protected_resources: [...ctx.resources],
  }
}

/**
 * OpenID Provider metadata: the RFC 8414 document plus what OpenID Connect adds, except that it
 * lists only the spec's OpenID scopes; assistants read `read` and `write` in the RFC 8414 document
 * and in the collector's protected-resource metadata.
 */
export function openIdMetadata(ctx: OAuthContext) {
  return {
    ...oauthMetadata(ctx),
    scopes_supported: [...OPENID_SCOPES],
    userinfo_endpoint: `${ctx.issuer}/api/oauth/userinfo`,
    end_session_endpoint: `${ctx.issuer}/api/oauth/logout`,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'amr',
      'nonce',
      'azp',
      'at_hash',
      'email',
      'name',
      'picture',
      'image',
      'role',
      'organizations',
      'amr',
      'acr',
    ],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    acr_values_supported: [...ACR_VALUES],
  }
}

export function discoveryRoute(app: GuardFastify, ctx: OAuthContext): void {
  app.get(
    '/.well-known/openid-configuration',
    { schema: { summary: 'OpenID Provider metadata', tags: ['oauth'], response: { 200: discoveryDocument } } },
    async () => openIdMetadata(ctx),
  )
  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        description:
          'What MCP clients read first: endpoints, dynamic registration, PKCE S256, the scopes read and write, ' +
          'and the RFC 8707 resources tokens can be issued for (protected_resources).',
        tags: ['oauth'],
        response: { 200: authorizationServerMetadata },
      },
    },
    async () => oauthMetadata(ctx),
  )
}
