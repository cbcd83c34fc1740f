import type { Sql } from '@guard/shared'
import { generateRegistrationOptions, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server'
import { storeChallenge } from '../challenges.ts'
import { relyingParty } from '../relying-party.ts'

/**
 * Options for the browser to create a passkey: discoverable (so it signs in without an e-mail),
 * never a second one on an authenticator that already holds one of this user's.
 */
export async function startPasskeyRegistration(
  sql: Sql,
  input: { issuer: string; userId: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rows } = await sql.query<{ email: string; name: string }>(
    'SELECT email, name FROM identity.users WHERE id = $1',
    [input.userId],
  )
  const user = rows[0]
  if (!user) throw new Error(`user ${input.userId} is gone`)
  const existing = await sql.query<{ credential_id: string; transports: string[] }>(
    'SELECT credential_id, transports FROM identity.passkeys WHERE user_id = $1',
    [input.userId],
  )
  const rp = relyingParty(input.issuer)
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: new TextEncoder().encode(input.userId),
    attestationType: 'none',
    excludeCredentials: existing.rows.map((row) => ({ id: row.credential_id, transports: row.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  await storeChallenge(sql, { challenge: options.challenge, purpose: 'register', userId: input.userId })
  return options
}
