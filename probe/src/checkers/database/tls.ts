import { isIP } from 'node:net'
import { checkServerIdentity, type PeerCertificate } from 'node:tls'
import type { CheckResult } from '@guard/shared'
import { describeCertificate } from '../certificate.ts'

export interface DatabaseTls {
  /** For the driver's `tls.connect`: SNI and hostname check against the name, not the vetted address. */
  options: {
    servername?: string
    rejectUnauthorized: boolean
    checkServerIdentity: (hostname: string, peer: PeerCertificate) => Error | undefined
  }
  /** The server's certificate once the handshake has shown it. */
  certificate(): CheckResult['certificate']
}

/**
 * TLS for a driver that dials the vetted address itself. Drivers keep their socket to themselves,
 * so the certificate is read where Node hands it to `checkServerIdentity`: after the chain has
 * verified. A certificate whose chain does not verify fails the check with the reason, and under
 * `ignoreTlsErrors` goes unreported.
 */
export function databaseTls(hostname: string, ignoreTlsErrors: boolean | undefined): DatabaseTls {
  let certificate: CheckResult['certificate']
  return {
    options: {
      ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
      rejectUnauthorized: !ignoreTlsErrors,
      checkServerIdentity(name, peer) {
        const mismatch = checkServerIdentity(name, peer)
        certificate = describeCertificate(peer, mismatch === undefined)
        return mismatch
      },
    },
    certificate: () => certificate,
  }
}
