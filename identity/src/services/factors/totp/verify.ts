import { decryptSecret, type Sql } from '@guard/shared'
import { verify } from 'otplib'
import { TOTP_PERIOD, TOTP_TOLERANCE_SECONDS, totpCode } from './settings.ts'

/**
 * Checks a code against the user's TOTP secret (confirmed or, with `confirming`, the one being
 * enrolled) and spends its time step: the same code, or an older one, is refused afterwards,
 * even by a concurrent request (the step only moves forward in one UPDATE).
 */
export async function verifyTotp(
  sql: Sql,
  input: { key: Buffer; userId: string; code: string; confirming?: boolean; now?: number },
): Promise<boolean> {
  const code = input.code.replace(/\s/g, '')
  if (!totpCode.test(code)) return false
  const { rows } = await sql.query<{ secret_encrypted: string; last_used_step: string | number | null }>(
    `SELECT secret_encrypted, last_used_step FROM identity.totp_secrets
      WHERE user_id = $1 AND (confirmed_at IS NOT NULL) = $2`,
    [input.userId, !input.confirming],
  )
  const row = rows[0]
  if (!row) return false
  const lastStep = row.last_used_step === null ? undefined : Number(row.last_used_step)
  const result = await verify({
    secret: decryptSecret(input.key, row.secret_encrypted),
    token: code,
    period: TOTP_PERIOD,
    epoch: Math.floor((input.now ?? Date.now()) / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(lastStep === undefined ? {} : { afterTimeStep: lastStep }),
  }).catch(() => ({ valid: false as const }))
  if (!result.valid || !('timeStep' in result)) return false
  const spent = await sql.query(
    `UPDATE identity.totp_secrets SET last_used_step = $2,
            confirmed_at = coalesce(confirmed_at, CASE WHEN $3 THEN now() END)
      WHERE user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2)`,
    [input.userId, result.timeStep, Boolean(input.confirming)],
  )
  return spent.affectedRows > 0
}
