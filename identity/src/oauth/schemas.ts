import { type ErrorCode, errorCodes, organizationClaim } from '@guard/shared'
import { z } from 'zod'
import { problemSchema } from '../routes/schemas.ts'
import { OPENID_SCOPES, SUPPORTED_SCOPES } from './scopes.ts'

const errorCode = z.enum(errorCodes as [ErrorCode, ...ErrorCode[]])

/** Token and revoke errors: the problem fields plus RFC 6749 §5.2's. */
export const oauthErrorBody = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: errorCode,
    hint: z.string().optional(),
    error: z.string(),
    error_description: z.string(),
  })
  .describe('application/json: problem fields (with hint) and RFC 6749 error, error_description')

/** RFC 8414 authorization server metadata; the OpenID document below is a superset. */
export const authorizationServerMetadata = z.looseObject({
  issuer: z.url(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  registration_endpoint: z.url(),
  revocation_endpoint: z.url(),
  scopes_supported: z.array(z.enum(SUPPORTED_SCOPES)),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  protected_resources: z.array(z.url()).describe('RFC 9728 §4: the resources tokens can be issued for'),
})

export const discoveryDocument = authorizationServerMetadata.extend({
  scopes_supported: z
    .array(z.enum(OPENID_SCOPES))
    .describe('the OpenID scopes only; read and write are in /.well-known/oauth-authorization-server'),
  userinfo_endpoint: z.url(),
  end_session_endpoint: z.url(),
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
  claims_supported: z.array(z.string()),
  prompt_values_supported: z.array(z.string()),
  acr_values_supported: z.array(z.string()),
})

export const jsonWebKeySet = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      kid: z.string(),
      use: z.string().optional(),
      alg: z.string().optional(),
      n: z.string().optional(),
      e: z.string().optional(),
    }),
  ),
})

/** Only the spec's token form fields: anything else is invalid_request. */
export const tokenForm = z.strictObject({
  grant_type: z.string().describe('authorization_code or refresh_token'),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  code_verifier: z.string().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  resource: z.string().optional().describe('RFC 8707: omitted, or the resource the authorization was for'),
})

export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string().optional(),
  id_token: z.string().optional(),
  scope: z.string().optional(),
})

export const revokeForm = z.strictObject({
  token: z.string(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
})

export const userInfoClaims = z.strictObject({
  sub: z.string(),
  email: z.email().optional(),
  name: z.string().optional(),
  picture: z.url().optional(),
  image: z.url().optional(),
  role: z.string().optional(),
  organizations: z.array(organizationClaim).optional(),
})

/** Unknown authorization parameters are ignored (RFC 6749 §3.1), so the object is loose. */
export const authorizeQuery = z.looseObject({
  client_id: z.string().optional(),
  redirect_uri: z.string().optional(),
  response_type: z.string().optional(),
  scope: z.string().optional(),
  state: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
  nonce: z.string().optional(),
  prompt: z.string().optional().describe('none, login, consent or select_account (OIDC Core 3.1.2.1)'),
  max_age: z.string().optional().describe('seconds; a sign-in older than this asks for the password again'),
  resource: z
    .string()
    .optional()
    .describe('RFC 8707: the resource (one of protected_resources) the access token is for; its `aud`'),
  acr_values: z
    .string()
    .optional()
    .describe(
      'space-separated acr values (acr_values_supported); the lowest known one is required: a session below it proves a second factor first',
    ),
})

export type AuthorizeQuery = z.infer<typeof authorizeQuery>

export const htmlPage = z.string().describe('text/html page')
/** No body, so the document gives the response no content. */
export const redirect = z.null().describe('redirect; see the Location header')

/**
 * Responses whose body is not application/json (the document's default) name the media type they
 * are sent with: the pages' HTML, and problem+json from sendProblem and the app's error handler.
 */
const html = { 'text/html': { schema: htmlPage } }
const problem = { 'application/problem+json': { schema: problemSchema } }

export const htmlResponse = (description: string) => ({ description, content: html })
export const problemResponse = (description: string) => ({ description, content: problem })
/** A status a page answers with its own HTML, and the error handler (a malformed request) with a problem. */
export const htmlOrProblemResponse = (description: string) => ({ description, content: { ...html, ...problem } })
