import { GuardError, type Sql } from '@guard/shared'
import { type AuthenticationResponseJSON, verifyAuthenticationResponse } from '@simplewebauthn/server'
import type { z } from 'zod'
import { takeChallenge } from '../challenges.ts'
import { relyingParty } from '../relying-party.ts'
import type { authenticationResponse } from './schemas.ts'

interface PasskeyRow {
  id: string
  user_id: string
  public_key: string
  counter: string | number
  transports: string[]
  device_type: 'singleDevice' | 'multiDevice'
}

const refused = (why: string) => new GuardError('UNAUTHORIZED', `the passkey was not accepted: ${why}`)

/**
 * Verifies a passkey signature and returns whose passkey it is and how it is kept (hwk: bound to
 * one device, swk: synced). The signature counter must grow when the authenticator keeps one (a
 * cloned authenticator repeats one), and a passkey cannot turn from device-bound to synced.
 */
export async function finishPasskeyAuthentication(
  sql: Sql,
  input: { issuer: string; userId: string | undefined; response: z.infer<typeof authenticationResponse> },
): Promise<{ userId: string; passkeyId: string; method: 'hwk' | 'swk' }> {
  const { rows } = await sql.query<PasskeyRow>(
    `SELECT p.id, p.user_id, p.public_key, p.counter, p.transports, p.device_type
       FROM identity.passkeys p JOIN identity.users u ON u.id = p.user_id
      WHERE p.credential_id = $1 AND u.disabled_at IS NULL`,
    [input.response.id],
  )
  const passkey = rows[0]
  if (!passkey || (input.userId !== undefined && passkey.user_id !== input.userId)) {
    throw refused('unknown passkey')
  }
  const rp = relyingParty(input.issuer)
  const verification = await verifyAuthenticationResponse({
    response: input.response as AuthenticationResponseJSON,
    expectedChallenge: (challenge) => takeChallenge(sql, { challenge, purpose: 'authenticate', userId: input.userId }),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: input.response.id,
      publicKey: Buffer.from(passkey.public_key, 'base64url'),
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw refused((error as Error).message)
  })
  const info = verification.authenticationInfo
  if (!verification.verified) throw refused('the signature does not verify')
  if (info.credentialDeviceType !== passkey.device_type) throw refused('its backup eligibility changed')
  await sql.query('UPDATE identity.passkeys SET counter = $2, backed_up = $3, last_used_at = now() WHERE id = $1', [
    passkey.id,
    info.newCounter,
    info.credentialBackedUp,
  ])
  return {
    userId: passkey.user_id,
    passkeyId: passkey.id,
    method: passkey.device_type === 'singleDevice' ? 'hwk' : 'swk',
  }
}
