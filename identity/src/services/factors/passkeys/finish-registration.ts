import { GuardError, newId, type Sql } from '@guard/shared'
import { type RegistrationResponseJSON, verifyRegistrationResponse } from '@simplewebauthn/server'
import type { z } from 'zod'
import { takeChallenge } from '../challenges.ts'
import { relyingParty } from '../relying-party.ts'
import { passkeyName, type registrationResponse } from './schemas.ts'

/** Verifies the browser's answer to startPasskeyRegistration and stores the new passkey. */
export async function finishPasskeyRegistration(
  sql: Sql,
  input: { issuer: string; userId: string; name: string; response: z.infer<typeof registrationResponse> },
): Promise<{ id: string; deviceType: 'singleDevice' | 'multiDevice' }> {
  const name = passkeyName.parse(input.name)
  const rp = relyingParty(input.issuer)
  const verification = await verifyRegistrationResponse({
    response: input.response as RegistrationResponseJSON,
    expectedChallenge: (challenge) => takeChallenge(sql, { challenge, purpose: 'register', userId: input.userId }),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw new GuardError('VALIDATION_ERROR', `the passkey was not accepted: ${(error as Error).message}`)
  })
  if (!verification.verified) throw new GuardError('VALIDATION_ERROR', 'the passkey was not accepted')
  const info = verification.registrationInfo
  const id = newId()
  const inserted = await sql.query(
    `INSERT INTO identity.passkeys
       (id, user_id, credential_id, public_key, counter, transports, device_type, backed_up, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (credential_id) DO NOTHING`,
    [
      id,
      input.userId,
      info.credential.id,
      Buffer.from(info.credential.publicKey).toString('base64url'),
      info.credential.counter,
      info.credential.transports ?? [],
      info.credentialDeviceType,
      info.credentialBackedUp,
      name,
    ],
  )
  if (inserted.affectedRows === 0) throw new GuardError('CONFLICT', 'this passkey is already registered')
  return { id, deviceType: info.credentialDeviceType }
}
