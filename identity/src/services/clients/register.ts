import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { OAuthError } from '../../oauth/oauth-error.ts'
import { formatScope, parseScope, SUPPORTED_SCOPES } from '../../oauth/scopes.ts'
import { checkRedirectUri, createClient } from './create.ts'

/**
 * RFC 7591 §2 client metadata. Unknown fields (client_uri, logo_uri, software_id, contacts…)
 * are accepted and not stored, as §3.2.1 allows; the answer says what was registered.
 */
export const registrationRequest = z.looseObject({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  client_name: z.string().optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  scope: z.string().optional(),
})

export type RegistrationRequest = z.infer<typeof registrationRequest>

export const registrationResponse = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.literal(['authorization_code', 'refresh_token'])),
  response_types: z.array(z.literal('code')),
  token_endpoint_auth_method: z.literal('none'),
  scope: z.string(),
})

export type RegistrationResponse = z.infer<typeof registrationResponse>

const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const
/** Printable, no control characters: the name is shown on the consent page. */
const CLIENT_NAME = /^[^\p{Cc}]{1,100}$/u

const badMetadata = (why: string) => new OAuthError('invalid_client_metadata', why)

/**
 * Registers a public client for the authorization code flow with PKCE S256 (the only kind
 * dynamic registration creates: a secret handed to any caller would prove nothing). It is
 * never first-party, so the user always sees the consent page, and is pruned when unused.
 */
export async function registerDynamicClient({
  sql,
  input,
}: {
  sql: Sql
  input: unknown
}): Promise<RegistrationResponse> {
  const parsed = registrationRequest.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || 'body'
    const error = issue?.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata'
    throw new OAuthError(error, `${where}: ${issue?.message ?? 'invalid'}`)
  }
  const request = parsed.data
  for (const uri of request.redirect_uris) {
    try {
      checkRedirectUri(uri, true)
    } catch (error) {
      if (error instanceof GuardError) throw new OAuthError('invalid_redirect_uri', error.message)
      throw error
    }
  }
  const method = request.token_endpoint_auth_method ?? 'none'
  if (method !== 'none') {
    throw badMetadata(`token_endpoint_auth_method ${method} is not offered: only public clients (none) register`)
  }
  const grantTypes = request.grant_types ?? ['authorization_code']
  const unknownGrant = grantTypes.find((grant) => !(GRANT_TYPES as readonly string[]).includes(grant))
  if (unknownGrant) throw badMetadata(`grant_type ${unknownGrant} is not offered (authorization_code, refresh_token)`)
  if (!grantTypes.includes('authorization_code')) throw badMetadata('grant_types must include authorization_code')
  const responseTypes = request.response_types ?? ['code']
  if (responseTypes.some((type) => type !== 'code')) throw badMetadata('response_types must be code')
  const name = request.client_name?.trim() || new URL(request.redirect_uris[0] ?? '').host || 'Unnamed application'
  if (!CLIENT_NAME.test(name)) throw badMetadata('client_name must be 1 to 100 characters without control characters')
  const scopes = request.scope === undefined ? [...SUPPORTED_SCOPES] : parseScope(request.scope)
  const unknownScopes = scopes.filter((scope) => !(SUPPORTED_SCOPES as readonly string[]).includes(scope))
  if (unknownScopes.length > 0) throw badMetadata(`scope not offered: ${unknownScopes.join(' ')}`)
  if (scopes.length === 0) throw badMetadata('scope is empty')

  const created = await createClient(sql, {
    name,
    redirectUris: request.redirect_uris,
    isPublic: true,
    requirePkce: true,
    firstParty: false,
    allowedScopes: scopes,
    registeredDynamically: true,
  })
  return {
    client_id: created.client_id,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    client_name: name,
    redirect_uris: created.redirect_uris,
    // Refresh tokens are issued on every code exchange, so the registration says so.
    grant_types: [...GRANT_TYPES],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: formatScope(scopes),
  }
}
