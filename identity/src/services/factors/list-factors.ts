import type { Sql } from '@guard/shared'

export interface Factors {
  passkeys: number
  totp: boolean
  recoveryCodesLeft: number
}

/** Which second factors the user has set up. */
export async function listFactors(sql: Sql, userId: string): Promise<Factors> {
  const { rows } = await sql.query<{ passkeys: string | number; totp: boolean; recovery: string | number }>(
    `SELECT (SELECT count(*) FROM identity.passkeys WHERE user_id = $1) AS passkeys,
            EXISTS (SELECT 1 FROM identity.totp_secrets WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
            (SELECT count(*) FROM identity.recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS recovery`,
    [userId],
  )
  const row = rows[0]
  return {
    passkeys: Number(row?.passkeys ?? 0),
    totp: Boolean(row?.totp),
    recoveryCodesLeft: Number(row?.recovery ?? 0),
  }
}

export const hasSecondFactor = (factors: Factors) => factors.passkeys > 0 || factors.totp
