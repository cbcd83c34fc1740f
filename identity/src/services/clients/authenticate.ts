import { timingSafeEqual } from 'node:crypto'
import type { Sql } from '@guard/shared'
import { OAuthError } from '../../oauth/oauth-error.ts'
import { hashToken } from '../tokens/secret.ts'
import { type Client, findClient } from './client.ts'

export interface ClientCredentials {
  clientId: string
  /** Absent for a public client. */
  clientSecret: string | undefined
}

const invalidClient = () => new OAuthError('invalid_client', 'client authentication failed')

/**
 * client_secret_basic / client_secret_post for confidential clients, `none` for public ones.
 * The secret's hash is compared in constant time; every failure looks the same to the caller.
 */
export async function authenticateClient(sql: Sql, credentials: ClientCredentials): Promise<Client> {
  const client = await findClient(sql, credentials.clientId)
  if (!client) throw invalidClient()
  if (client.secretHash === null) {
    if (credentials.clientSecret !== undefined) throw invalidClient()
    return client
  }
  if (credentials.clientSecret === undefined) throw invalidClient()
  const presented = Buffer.from(hashToken(credentials.clientSecret))
  const expected = Buffer.from(client.secretHash)
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw invalidClient()
  return client
}
