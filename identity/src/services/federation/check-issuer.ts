import { GuardError, resolveAllowedTarget, TargetRefusedError } from '@guard/shared'

/**
 * Refuses an issuer on a private, loopback or metadata address (unless the operator allowed
 * private targets) and a plain http:// one on a public address, before anything is stored: the
 * same check runs again at every request to it.
 */
export async function checkIssuer(issuer: string, allowPrivate: boolean): Promise<void> {
  const url = new URL(issuer)
  try {
    await resolveAllowedTarget(url.hostname, { allowPrivate, signal: AbortSignal.timeout(5_000) })
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      throw new GuardError('VALIDATION_ERROR', `issuer: ${error.message}`)
    }
    throw new GuardError('VALIDATION_ERROR', `issuer: ${url.hostname} does not resolve`)
  }
  if (url.protocol === 'http:' && !allowPrivate) {
    throw new GuardError('VALIDATION_ERROR', 'issuer: must be an https:// URL')
  }
}
