import { decryptSecret, derivePurposeKey, encryptSecret } from '../crypto/index.ts'
import { type HttpAuth, type HttpTarget, httpAuth } from './monitor.ts'
import { CredentialsUnavailableError } from './protocols/define.ts'

export { CredentialsUnavailableError }

/**
 * Credentials travel to probes sealed when the collector and the probes share
 * GUARD_PROBE_CREDENTIALS_KEY: the KV bucket `monitors` and manual-check requests then hold
 * `sealedAuth` only, and a probe opens it just before the check. The key is not GUARD_SECRET_KEY,
 * so a probe in a remote region never holds the key that guards everything else.
 */
export const probeCredentialsKey = (secret: string): Buffer => derivePurposeKey(secret, 'guard/probe-credentials/v1')

export function sealTargetAuth(target: HttpTarget, key: Buffer | undefined): HttpTarget {
  if (!key || !target.auth) return target
  const { auth, ...rest } = target
  return { ...rest, sealedAuth: encryptSecret(key, JSON.stringify(auth)) }
}

/** The target with its credentials opened; throws CredentialsUnavailableError without the right key. */
export function openTargetAuth(target: HttpTarget, key: Buffer | undefined): HttpTarget {
  if (!target.sealedAuth) return target
  const { sealedAuth, ...rest } = target
  if (!key) {
    throw new CredentialsUnavailableError(
      'the monitor has sealed credentials; set GUARD_PROBE_CREDENTIALS_KEY on this probe as on the collector',
    )
  }
  let auth: HttpAuth
  try {
    auth = httpAuth.parse(JSON.parse(decryptSecret(key, sealedAuth)))
  } catch {
    throw new CredentialsUnavailableError(
      'GUARD_PROBE_CREDENTIALS_KEY of this probe does not open the credentials; it must equal the collector’s',
    )
  }
  return { ...rest, auth }
}
