import { randomBytes } from 'node:crypto'
import type { Sql } from '@guard/shared'
import { hashToken } from '../../tokens/secret.ts'

export const RECOVERY_CODE_COUNT = 10

/** 60 random bits as three groups of five base32 characters: short to type, long enough to guess never. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'

function recoveryCode(): string {
  const bytes = randomBytes(15)
  const chars = [...bytes].map((byte) => ALPHABET[byte & 31]).join('')
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}`
}

/** Normalised as stored: lower case, no separators or spaces. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '')

/** Ten new codes replacing any earlier ones; only their hashes are kept, so they are shown once. */
export async function generateRecoveryCodes(sql: Sql, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode)
  await sql.transaction(async (tx) => {
    await tx.query('DELETE FROM identity.recovery_codes WHERE user_id = $1', [userId])
    for (const code of codes) {
      await tx.query('INSERT INTO identity.recovery_codes (user_id, code_hash) VALUES ($1, $2)', [
        userId,
        hashToken(normaliseRecoveryCode(code)),
      ])
    }
  })
  return codes
}
