import { GuardError, type Sql } from '@guard/shared'
import { hashToken, randomToken } from '../tokens/secret.ts'
import { type ClientView, getClient } from './list.ts'

/** A new secret for a confidential client, shown once; the old one stops working at once. */
export async function rotateClientSecret(sql: Sql, id: string): Promise<ClientView & { client_secret: string }> {
  const client = await getClient(sql, id)
  if (client.public) throw new GuardError('VALIDATION_ERROR', `client ${id} is public and has no secret to rotate`)
  const secret = randomToken()
  await sql.query('UPDATE identity.clients SET secret_hash = $2 WHERE id = $1', [id, hashToken(secret)])
  return { ...client, client_secret: secret }
}
