import type { ErrorCode } from '@guard/shared'

/** RFC 6749 §5.2 / §4.1.2.1 and OIDC error codes this provider answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
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
  access_denied: 403,
  login_required: 401,
  consent_required: 403,
  invalid_token: 401,
  server_error: 500,
  temporarily_unavailable: 503,
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

  /** The Guard error code the problem body carries beside the OAuth one. */
  get code(): ErrorCode {
    if (this.status === 401) return 'UNAUTHORIZED'
    if (this.status === 403) return 'FORBIDDEN'
    if (this.status === 500) return 'INTERNAL_ERROR'
    if (this.status === 503) return 'SERVICE_UNAVAILABLE'
    return 'VALIDATION_ERROR'
  }
}
