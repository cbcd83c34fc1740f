import { encryptSecret, GuardError, type Sql } from '@guard/shared'
import { generateSecret, generateURI } from 'otplib'
import QRCode from 'qrcode'
import { TOTP_ISSUER, TOTP_PERIOD } from './settings.ts'

/**
 * A new TOTP secret, stored encrypted and unconfirmed, and what the user needs to add it to an
 * app: the otpauth:// URI as an SVG QR code rendered here (no third-party service sees the
 * secret) and the secret itself for typing. A confirmed secret is replaced only once removed.
 */
export async function startTotpEnrolment(
  sql: Sql,
  input: { key: Buffer; userId: string },
): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const { rows } = await sql.query<{ email: string; confirmed: boolean }>(
    `SELECT u.email, t.confirmed_at IS NOT NULL AS confirmed
       FROM identity.users u LEFT JOIN identity.totp_secrets t ON t.user_id = u.id WHERE u.id = $1`,
    [input.userId],
  )
  const user = rows[0]
  if (!user) throw new Error(`user ${input.userId} is gone`)
  if (user.confirmed) throw new GuardError('CONFLICT', 'an authenticator app is already set up; remove it first')
  const secret = generateSecret()
  await sql.query(
    `INSERT INTO identity.totp_secrets (user_id, secret_encrypted) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = $2, created_at = now(), last_used_step = NULL`,
    [input.userId, encryptSecret(input.key, secret)],
  )
  const uri = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret, period: TOTP_PERIOD })
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  return { secret, uri, qrSvg }
}
