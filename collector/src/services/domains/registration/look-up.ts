import type { CollectorEnv } from '../../../env.ts'
import { type RdapBootstrap, rdapServerFor } from './bootstrap.ts'
import { fetchJson, hostOf } from './fetch-json.ts'
import { readRdapDomain } from './read-rdap-domain.ts'
import { type RegistrationErrorKind, RegistrationFailure } from './schemas.ts'

/** RDAP domain answers are a few kB; a quarter of a megabyte is not one. */
export const MAX_RDAP_BYTES = 256 * 1024

export interface LookupOutcome {
  expiresAt: string | undefined
  registrar: string | undefined
  error?: { kind: RegistrationErrorKind; message: string }
}

type LookupEnv = Pick<CollectorEnv, 'GUARD_RDAP_URL' | 'GUARD_RDAP_TIMEOUT_MS' | 'GUARD_ALLOW_PRIVATE_TARGETS'>

/**
 * Asks RDAP when `domain` (a registrable domain) expires: `GET {base}domain/{name}` on
 * GUARD_RDAP_URL, else on the bootstrap's server for its TLD, which the target guard vets
 * (README "Domain registration expiry" explains the trust). A failure of the server or of its
 * answer is the outcome's `error`, not a throw.
 */
export async function lookUpRegistration(
  env: LookupEnv,
  bootstrap: RdapBootstrap,
  domain: string,
): Promise<LookupOutcome> {
  const operatorServer = env.GUARD_RDAP_URL ? new URL(env.GUARD_RDAP_URL) : undefined
  const base = operatorServer ?? rdapServerFor(bootstrap, domain)
  if (!base) {
    return {
      expiresAt: undefined,
      registrar: undefined,
      error: { kind: 'no_rdap_server', message: `no RDAP server is known for .${domain.split('.').pop()}` },
    }
  }
  const url = new URL(`domain/${encodeURIComponent(domain)}`, base)
  try {
    const { status, body } = await fetchJson(url, {
      accept: 'application/rdap+json, application/json;q=0.9',
      timeoutMs: env.GUARD_RDAP_TIMEOUT_MS,
      maxBytes: MAX_RDAP_BYTES,
      ...(operatorServer ? {} : { guard: { allowPrivate: env.GUARD_ALLOW_PRIVATE_TARGETS } }),
    })
    if (status === 404)
      throw new RegistrationFailure('not_found', `${hostOf(url)} answered 404: it holds no registration of ${domain}`)
    if (status !== 200) throw new RegistrationFailure('http_status', `${hostOf(url)} answered ${status}`)
    const found = readRdapDomain(body, domain)
    if (!found.expiresAt) {
      return {
        ...found,
        error: { kind: 'no_expiration', message: `${hostOf(url)} publishes no expiration date for ${domain}` },
      }
    }
    return found
  } catch (error) {
    if (!(error instanceof RegistrationFailure)) throw error
    return { expiresAt: undefined, registrar: undefined, error: { kind: error.kind, message: error.message } }
  }
}
