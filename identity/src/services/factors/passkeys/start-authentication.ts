import type { Sql } from '@guard/shared'
import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { storeChallenge } from '../challenges.ts'
import { relyingParty } from '../relying-party.ts'

/**
 * Options for the browser to sign with a passkey. With a user (the second factor after the
 * password, or a step-up) only that user's passkeys; without one any discoverable passkey of this
 * relying party, the user found from the credential afterwards.
 */
export async function startPasskeyAuthentication(
  sql: Sql,
  input: { issuer: string; userId: string | undefined },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowed = input.userId
    ? (
        await sql.query<{ credential_id: string; transports: string[] }>(
          'SELECT credential_id, transports FROM identity.passkeys WHERE user_id = $1',
          [input.userId],
        )
      ).rows.map((row) => ({ id: row.credential_id, transports: row.transports }))
    : []
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(input.issuer).id,
    allowCredentials: allowed,
    userVerification: 'required',
  })
  await storeChallenge(sql, { challenge: options.challenge, purpose: 'authenticate', userId: input.userId })
  return options
}
