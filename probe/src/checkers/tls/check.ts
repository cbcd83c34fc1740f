import { isIP } from 'node:net'
import { connect, type TLSSocket } from 'node:tls'
import type { CheckResult } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { certificateOf, certificateProblem, daysUntil } from '../certificate.ts'
import { elapsedSince, failed, roundMs, tlsErrorKind } from '../outcome.ts'
import { secureContext } from '../secure-context.ts'
import { vetTarget } from '../vet-target.ts'

const DEFAULT_WARN_DAYS = 14

function handshake(address: string, port: number, servername: string | undefined, signal: AbortSignal) {
  return new Promise<{ socket: TLSSocket; connectedAt: number }>((resolve, reject) => {
    let connectedAt = performance.now()
    // Verification failures are reported, not fatal: the point is to describe the certificate.
    const socket = connect({
      host: address,
      port,
      rejectUnauthorized: false,
      secureContext,
      ...(servername ? { servername } : {}),
    })
    const onAbort = () => socket.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    socket.once('connect', () => {
      connectedAt = performance.now()
    })
    socket.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort)
      resolve({ socket, connectedAt })
    })
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
  })
}

/** Down when missing or not valid, degraded when it expires within `warnDays`, up otherwise. */
export function certificateVerdict(
  certificate: CheckResult['certificate'],
  problem: string | undefined,
  warnDays: number,
): Pick<CheckResult, 'status' | 'error' | 'errorKind'> {
  if (!certificate) return { status: 'down', error: 'the server sent no certificate', errorKind: 'tls_invalid' }
  if (problem) return { status: 'down', error: problem, errorKind: tlsErrorKind(problem) }
  const daysLeft = daysUntil(certificate.expiresAt)
  if (daysLeft < warnDays) {
    return {
      status: 'degraded',
      error: `certificate expires in ${Math.max(0, Math.floor(daysLeft))} days`,
      errorKind: 'tls_expiring',
    }
  }
  return { status: 'up' }
}

/** A TLS handshake on any host and port: the certificate's validity and days left. */
export const tlsChecker: Checker<'tls'> = {
  kind: 'tls',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    try {
      const vetted = await vetTarget(target.host, context)
      const connecting = performance.now()
      const servername = isIP(vetted.hostname) === 0 ? vetted.hostname : undefined
      const { socket, connectedAt } = await handshake(vetted.address, target.port ?? 443, servername, context.signal)
      const certificate = certificateOf(socket)
      const problem = certificateProblem(socket)
      socket.destroy()
      const responseTimeMs = elapsedSince(started)
      const phases = {
        dnsMs: roundMs(vetted.lookupMs),
        connectMs: roundMs(connectedAt - connecting),
        tlsMs: elapsedSince(connectedAt),
      }
      return {
        responseTimeMs,
        phases,
        address: vetted.address,
        ...(certificate ? { certificate } : {}),
        ...certificateVerdict(certificate, problem, target.warnDays ?? DEFAULT_WARN_DAYS),
      }
    } catch (error) {
      return failed(error, context, started)
    }
  },
}
