import type { PeerCertificate, TLSSocket } from 'node:tls'
import type { CheckResult } from '@guard/shared'

type CertificateInfo = NonNullable<CheckResult['certificate']>

const distinguishedName = (name: PeerCertificate['subject'] | undefined) =>
  name
    ? Object.entries(name)
        .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
        .join(', ')
    : ''

const isoDate = (text: string) => new Date(text).toISOString()

/** The leaf certificate of a TLS connection, and whether the chain and hostname verified. */
export const certificateOf = (socket: TLSSocket): CertificateInfo | undefined =>
  describeCertificate(socket.getPeerCertificate(), socket.authorized)

/** A peer certificate as results carry it, for drivers that show the certificate but not the socket. */
export function describeCertificate(peer: PeerCertificate | undefined, valid: boolean): CertificateInfo | undefined {
  if (!peer?.valid_to) return undefined
  return {
    valid,
    expiresAt: isoDate(peer.valid_to),
    issuer: distinguishedName(peer.issuer),
    subject: distinguishedName(peer.subject),
    validFrom: isoDate(peer.valid_from),
    fingerprint256: peer.fingerprint256,
  }
}

/** Why the certificate did not verify, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT` or `CERT_HAS_EXPIRED`. */
export function certificateProblem(socket: TLSSocket): string | undefined {
  if (socket.authorized) return undefined
  const reason = socket.authorizationError
  return `certificate not valid: ${reason instanceof Error ? reason.message : String(reason ?? 'unknown')}`
}

export const daysUntil = (iso: string) => (Date.parse(iso) - Date.now()) / 86_400_000
