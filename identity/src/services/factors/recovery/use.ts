import type { Sql } from '@guard/shared'
import { hashToken } from '../../tokens/secret.ts'
import { normaliseRecoveryCode } from './generate.ts'

/** Spends one recovery code: true once, false for a wrong or already used one. */
export async function useRecoveryCode(sql: Sql, input: { userId: string; code: string }): Promise<boolean> {
  const code = normaliseRecoveryCode(input.code)
  if (!/^[a-z2-7]{15}$/.test(code)) return false
  const { affectedRows } = await sql.query(
    `UPDATE identity.recovery_codes SET used_at = now()
      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
    [input.userId, hashToken(code)],
  )
  return affectedRows > 0
}
