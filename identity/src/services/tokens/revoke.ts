import type { Sql } from '@guard/shared'
import type { Client } from '../clients/client.ts'
import { revokeGrant } from './revoke-grant.ts'
import { hashToken } from './secret.ts'
import type { Signer } from './sign.ts'
import { verifyAccessToken } from './verify-access.ts'

/**
 * RFC 7009. A refresh token ends its whole family (its access tokens included); an access token
 * ends just itself. Unknown tokens, tokens of other clients and already dead tokens change
 * nothing, and the caller answers 200 either way so the endpoint reveals nothing.
 */
export async function revokeToken(sql: Sql, signer: Signer, client: Client, token: string): Promise<void> {
  const { rows } = await sql.query<{ grant_id: string; client_id: string }>(
    `SELECT r.grant_id, g.client_id FROM identity.refresh_tokens r JOIN identity.grants g ON g.id = r.grant_id
      WHERE r.token_hash = $1`,
    [hashToken(token)],
  )
  const refresh = rows[0]
  if (refresh) {
    if (refresh.client_id === client.id) await revokeGrant(sql, refresh.grant_id)
    return
  }
  const access = await verifyAccessToken(sql, signer, token).catch(() => undefined)
  if (access?.clientId === client.id) {
    await sql.query('UPDATE identity.access_tokens SET revoked_at = now() WHERE jti = $1', [access.jti])
  }
}
