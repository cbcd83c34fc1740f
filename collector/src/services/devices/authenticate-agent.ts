import { GuardError, type Sql } from '@guard/shared'
import { hashDeviceToken, sameHash } from './token.ts'

export interface AgentDevice {
  id: string
  organizationId: string
}

const invalid = () => new GuardError('UNAUTHORIZED', 'Invalid or missing device token')

/** Resolves `Authorization: Bearer <device token>` to its device, or throws UNAUTHORIZED. */
export async function authenticateAgent(sql: Sql, authorization: string | undefined): Promise<AgentDevice> {
  const token = authorization?.match(/^Bearer\s+(\S{1,200})\s*$/i)?.[1]
  if (!token) throw invalid()
  const hash = hashDeviceToken(token)
  const { rows } = await sql.query<{ id: string; organization_id: string; token_hash: string }>(
    'SELECT id, organization_id, token_hash FROM monitoring.devices WHERE token_hash = $1',
    [hash],
  )
  const row = rows[0]
  if (!row || !sameHash(row.token_hash, hash)) throw invalid()
  return { id: row.id, organizationId: row.organization_id }
}
