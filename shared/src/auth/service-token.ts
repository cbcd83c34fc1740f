import { errors, jwtVerify, SignJWT } from 'jose'
import { derivePurposeKey } from '../crypto/secret-key.ts'
import { GuardError } from '../errors.ts'

/** Who may call identity's internal routes: another Guard process holding the same GUARD_SECRET_KEY. */
const ISSUER = 'urn:guard:service'
const AUDIENCE = 'urn:guard:identity-internal'
const LIFETIME_SECONDS = 60

const keyOf = (secretKey: string) => derivePurposeKey(secretKey, 'guard service tokens')

/**
 * A short-lived HS256 token for service-to-service calls (collector to identity). The key is
 * derived from GUARD_SECRET_KEY for this purpose only, so a leaked token reveals nothing about
 * the secret, and it expires within a minute.
 */
export async function signServiceToken(secretKey: string, subject: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_SECONDS}s`)
    .sign(keyOf(secretKey))
}

/** The calling service's name, or GuardError UNAUTHORIZED. */
export async function verifyServiceToken(secretKey: string, token: string): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secretKey), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      maxTokenAge: `${LIFETIME_SECONDS + 5}s`,
    })
    if (!payload.sub) throw new GuardError('UNAUTHORIZED', 'The service token names no caller')
    return payload.sub
  } catch (error) {
    if (error instanceof GuardError) throw error
    if (error instanceof errors.JOSEError) throw new GuardError('UNAUTHORIZED', 'Invalid or expired service token')
    throw error
  }
}
