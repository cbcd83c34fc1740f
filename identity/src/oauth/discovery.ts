import type { GuardFastify } from '@guard/shared'
import type { OAuthContext } from './context.ts'
import { discoveryDocument } from './schemas.ts'
import { SUPPORTED_SCOPES } from './scopes.ts'

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none']

export function discoveryRoute(app: GuardFastify, ctx: OAuthContext): void {
  app.get(
    '/.well-known/openid-configuration',
    { schema: { summary: 'OpenID Provider metadata', tags: ['oauth'], response: { 200: discoveryDocument } } },
    async () => ({
      issuer: ctx.issuer,
      authorization_endpoint: `${ctx.issuer}/api/oauth/authorize`,
      token_endpoint: `${ctx.issuer}/api/oauth/token`,
      jwks_uri: `${ctx.issuer}/.well-known/jwks.json`,
      userinfo_endpoint: `${ctx.issuer}/api/oauth/userinfo`,
      revocation_endpoint: `${ctx.issuer}/api/oauth/revoke`,
      end_session_endpoint: `${ctx.issuer}/api/oauth/logout`,
      scopes_supported: [...SUPPORTED_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: AUTH_METHODS,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'azp',
        'at_hash',
        'email',
        'name',
        'picture',
        'image',
        'role',
        'organizations',
      ],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      authorization_response_iss_parameter_supported: true,
    }),
  )
}
