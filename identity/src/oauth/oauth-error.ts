import type { ErrorCode } from '@guard/shared'

/** RFC 6749 §5.2 / §4.1.2.1, RFC 8707 (invalid_target), RFC 7591 §3.2.2 and OIDC error codes this provider answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'invalid_token'
  | 'server_error'
  | 'temporarily_unavailable'

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  access_denied: 403,
  login_required: 401,
  consent_required: 403,
  interaction_required: 403,
  invalid_token: 401,
  server_error: 500,
  temporarily_unavailable: 503,
}

/** What to do about each error: the problem body's `hint`, beside RFC 6749's fields. */
const HINTS: Record<OAuthErrorCode, string> = {
  invalid_request: 'Check the parameters against GET /openapi.json and the OAuth 2.0 specification (RFC 6749)',
  invalid_client: 'Send the registered client_id and client_secret, by HTTP Basic or in the form, not both',
  invalid_grant:
    'Start the authorization again: the code or refresh token is used, expired, revoked or another client’s',
  unauthorized_client: 'This client is not registered for that grant; ask the operator',
  unsupported_grant_type: 'Use grant_type authorization_code or refresh_token',
  unsupported_response_type: 'Use response_type=code',
  invalid_scope:
    'Request only scopes the client is registered for (openid, email, profile, organizations, read, write)',
  invalid_target:
    'Name one resource identity knows (protected_resources in /.well-known/oauth-authorization-server), the one the authorization was for',
  invalid_redirect_uri:
    'Register https redirect URIs, http ones on 127.0.0.1, [::1] or localhost, or a reverse-domain app scheme; no fragment',
  invalid_client_metadata:
    'Register a public client: token_endpoint_auth_method none, grant_types authorization_code (and refresh_token), response_types code',
  access_denied: 'The user or the provider refused; ask the user to try again',
  login_required: 'Send the user to the authorization endpoint without prompt=none to sign in',
  consent_required: 'Send the user to the authorization endpoint without prompt=none to give consent',
  interaction_required:
    'Send the user through authorize without prompt=none: the sign-in needs a second factor (an organization policy or acr_values)',
  invalid_token: 'Get a new access token (refresh it, or sign in again)',
  server_error: 'Retry once, then check GET /api/v1/health',
  temporarily_unavailable: 'Retry after the number of seconds in Retry-After; GET /api/v1/health shows what is away',
}

/** A protocol error: each endpoint turns it into its wire form (JSON body, redirect or header). */
export class OAuthError extends Error {
  override name = 'OAuthError'
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description)
  }

  get status(): number {
    return STATUS[this.error]
  }

  get hint(): string {
    return HINTS[this.error]
  }

  /** The Guard error code the problem body carries beside the OAuth one. */
  get code(): ErrorCode {
    if (this.status === 401) return 'UNAUTHORIZED'
    if (this.status === 403) return 'FORBIDDEN'
    if (this.status === 500) return 'INTERNAL_ERROR'
    if (this.status === 503) return 'SERVICE_UNAVAILABLE'
    return 'VALIDATION_ERROR'
  }
}
