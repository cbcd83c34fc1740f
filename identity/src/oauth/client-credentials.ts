import type { FastifyRequest } from 'fastify'
import type { ClientCredentials } from '../services/clients/authenticate.ts'
import { OAuthError } from './oauth-error.ts'

// RFC 6749 §2.3.1: the Basic user and password are form-urlencoded before base64.
const formDecode = (value: string) => decodeURIComponent(value.replaceAll('+', ' '))

/**
 * client_secret_basic or client_secret_post (or just client_id for a public client). Using both
 * methods at once is refused, as RFC 6749 §2.3 requires.
 */
export function clientCredentials(
  request: FastifyRequest,
  form: { client_id?: string | undefined; client_secret?: string | undefined },
): ClientCredentials {
  const header = request.headers.authorization
  if (header?.toLowerCase().startsWith('basic ')) {
    if (form.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'use one client authentication method, not both Basic and client_secret')
    }
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials')
    let clientId: string
    let clientSecret: string
    try {
      clientId = formDecode(decoded.slice(0, colon))
      clientSecret = formDecode(decoded.slice(colon + 1))
    } catch {
      throw new OAuthError('invalid_client', 'malformed Basic credentials')
    }
    if (form.client_id !== undefined && form.client_id !== clientId) {
      throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials')
    }
    return { clientId, clientSecret }
  }
  if (!form.client_id) throw new OAuthError('invalid_client', 'client authentication is required')
  return { clientId: form.client_id, clientSecret: form.client_secret }
}
