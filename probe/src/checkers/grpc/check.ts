import { isIP, isIPv6, type Socket } from 'node:net'
import { type TLSSocket, connect as tlsConnect } from 'node:tls'
import type { CallCredentials, ChannelCredentials, ServiceError } from '@grpc/grpc-js'
import type { CheckResult } from '@guard/shared'
import { truncateText } from '@guard/shared'
import type { CheckContext, Checker, CheckOutcome } from '../../checker.ts'
import { certificateOf, certificateProblem } from '../certificate.ts'
import { elapsedSince, failed, roundMs, tlsErrorKind } from '../outcome.ts'
import { secureContext } from '../secure-context.ts'
import { vetTarget } from '../vet-target.ts'
import {
  decodeHealthCheckResponse,
  encodeHealthCheckRequest,
  HEALTH_CHECK_METHOD,
  type ServingStatus,
} from './health-messages.ts'

type Grpc = typeof import('@grpc/grpc-js')
type SecureConnector = ReturnType<ChannelCredentials['_createSecureConnector']>

/** Loaded on the first gRPC check, so a probe that runs none never loads grpc-js; reused after. */
let grpcModule: Promise<Grpc> | undefined
const loadGrpc = () => {
  grpcModule ??= import('@grpc/grpc-js')
  return grpcModule
}
type Verdict = Pick<CheckResult, 'status' | 'error' | 'errorKind'>

/** What the probe saw of the one connection a check opens. */
interface Connection {
  connectedAt?: number
  secureAt?: number
  tlsSocket?: TLSSocket
  /** Why the TLS handshake failed, when it did. */
  handshakeError?: Error
}

/**
 * Channel credentials that hand the probe the connection grpc-js opened: the moment TCP
 * connected, and for TLS the socket itself, so the certificate is described whether or not it
 * verifies (grpc-js's own TLS credentials drop an unverified connection, or hide its socket).
 */
function observingCredentials(
  grpc: Grpc,
  tls: { servername: string | undefined; host: string } | undefined,
  seen: Connection,
): ChannelCredentials {
  class ObservingCredentials extends grpc.ChannelCredentials {
    _isSecure(): boolean {
      return tls !== undefined
    }
    _equals(other: ChannelCredentials): boolean {
      return other === this
    }
    _createSecureConnector(_target: unknown, _options: unknown, callCredentials?: CallCredentials): SecureConnector {
      return {
        connect(socket: Socket) {
          seen.connectedAt = performance.now()
          if (!tls) return Promise.resolve({ socket, secure: false })
          return new Promise<{ socket: Socket; secure: boolean }>((resolve, reject) => {
            const tlsSocket = tlsConnect(
              {
                socket,
                host: tls.host,
                ...(tls.servername ? { servername: tls.servername } : {}),
                secureContext,
                rejectUnauthorized: false,
                ALPNProtocols: ['h2'],
              },
              () => {
                seen.secureAt = performance.now()
                seen.tlsSocket = tlsSocket
                resolve({ socket: tlsSocket, secure: true })
              },
            )
            tlsSocket.once('error', (error) => {
              seen.handshakeError = error
              reject(error)
            })
          })
        },
        waitForReady: () => Promise.resolve(),
        getCallCredentials: () => callCredentials ?? grpc.credentials.createEmpty(),
        destroy() {},
      }
    }
  }
  return new ObservingCredentials()
}

/** grpc-js's text of a failed connection without its wrapping: `connect ECONNREFUSED 10.0.0.1:50051`. */
const tidyDetails = (details: string) =>
  details
    .replace(/^No connection established\. Last error: (Error: )?/, '')
    .replace(/ \(\d{4}-\d\d-\d\dT[\d:.]+Z\)/, '')
    .replace(/\. Resolution note: .*$/s, '')

/** grpc-js reports a failed connection as UNAVAILABLE with the system error in its text. */
function connectionError(details: string): Error {
  const error: NodeJS.ErrnoException = new Error(details)
  const code = /\b(E[A-Z]{4,})\b/.exec(details)?.[1]
  if (code) error.code = code
  return error
}

const subject = (service: string) => (service === '' ? 'the server' : `service ${JSON.stringify(service)}`)

function servingVerdict(status: ServingStatus, service: string): Verdict {
  if (status === 'SERVING') return { status: 'up' }
  return {
    status: 'down',
    error: `the health service answered ${status} for ${subject(service)}`,
    errorKind: 'not_serving',
  }
}

function callFailure(
  grpc: Grpc,
  error: ServiceError,
  seen: Connection,
  service: string,
  context: CheckContext,
): Verdict | undefined {
  const details = truncateText(tidyDetails(error.details || error.message), 500)
  switch (error.code) {
    case grpc.status.NOT_FOUND:
      return { status: 'down', error: `the server does not know ${subject(service)}`, errorKind: 'not_serving' }
    case grpc.status.UNIMPLEMENTED:
      return {
        status: 'down',
        error: `the server does not implement grpc.health.v1.Health: ${details}`,
        errorKind: 'protocol_error',
      }
    case grpc.status.UNAUTHENTICATED:
    case grpc.status.PERMISSION_DENIED:
      return { status: 'down', error: `the server refused the call: ${details}`, errorKind: 'auth_failed' }
    case grpc.status.DEADLINE_EXCEEDED:
    case grpc.status.CANCELLED:
      return { status: 'down', error: `timed out after ${context.timeoutMs} ms`, errorKind: 'timeout' }
    case grpc.status.UNAVAILABLE: {
      // Not connected: the system error (refused, reset, unreachable) says why; classified by the caller.
      if (seen.connectedAt === undefined || seen.handshakeError) return undefined
      return {
        status: 'down',
        error: `connected, but the server did not answer as gRPC over HTTP/2: ${details}`,
        errorKind: 'protocol_error',
      }
    }
    default:
      return {
        status: 'down',
        error: `gRPC status ${grpc.status[error.code] ?? error.code}: ${details}`,
        errorKind: 'protocol_error',
      }
  }
}

/** The health call on its own channel, cancelled when the check's signal aborts. */
function healthCall(
  grpc: Grpc,
  channel: { target: string; credentials: ChannelCredentials; authority: string },
  request: { service: string; metadata: Record<string, string>; deadline: number },
  signal: AbortSignal,
  onFirstByte: () => void,
) {
  const client = new grpc.Client(channel.target, channel.credentials, {
    'grpc.default_authority': channel.authority,
    // A fresh connection per check, as every Guard check: no subchannel shared with another check.
    'grpc.use_local_subchannel_pool': 1,
    // The vetted address is the one connected to; a proxy from the environment would go elsewhere.
    'grpc.enable_http_proxy': 0,
    'grpc.enable_retries': 0,
    'grpc.max_receive_message_length': 64 * 1024,
  })
  const metadata = new grpc.Metadata()
  for (const [key, value] of Object.entries(request.metadata)) metadata.set(key.toLowerCase(), value)
  return new Promise<ServingStatus>((resolve, reject) => {
    const call = client.makeUnaryRequest(
      HEALTH_CHECK_METHOD,
      encodeHealthCheckRequest,
      decodeHealthCheckResponse,
      request.service,
      metadata,
      { deadline: request.deadline },
      (error, status) => {
        signal.removeEventListener('abort', onAbort)
        client.close()
        if (error) reject(error)
        else resolve(status ?? 'UNKNOWN')
      },
    )
    call.once('metadata', onFirstByte)
    const onAbort = () => call.cancel()
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
}

const isServiceError = (error: unknown): error is ServiceError =>
  error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'details' in error

/**
 * `grpc.health.v1.Health/Check` on a fresh HTTP/2 connection to the vetted address, with the
 * host name kept for `:authority` and TLS SNI: up on SERVING.
 */
export const grpcChecker: Checker<'grpc'> = {
  kind: 'grpc',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    const seen: Connection = {}
    let dnsMs: number | undefined
    let firstByteAt: number | undefined
    const measured = (connecting: number, address: string) => {
      const connectedAt = seen.connectedAt ?? connecting
      const answeredFrom = seen.secureAt ?? connectedAt
      return {
        responseTimeMs: elapsedSince(started),
        phases: {
          ...(dnsMs !== undefined ? { dnsMs } : {}),
          ...(seen.connectedAt !== undefined ? { connectMs: roundMs(seen.connectedAt - connecting) } : {}),
          ...(seen.secureAt !== undefined ? { tlsMs: roundMs(seen.secureAt - connectedAt) } : {}),
          ...(firstByteAt !== undefined ? { firstByteMs: roundMs(firstByteAt - answeredFrom) } : {}),
        },
        address,
        ...(seen.tlsSocket ? { certificate: certificateOf(seen.tlsSocket) } : {}),
      }
    }
    try {
      const vetted = await vetTarget(target.host, context)
      dnsMs = roundMs(vetted.lookupMs)
      const grpc = await loadGrpc()
      const port = target.port ?? 443
      const service = target.service ?? ''
      const hostname = vetted.hostname
      const channelTarget = isIPv6(vetted.address)
        ? `ipv6:[${vetted.address}]:${port}`
        : `ipv4:${vetted.address}:${port}`
      const tls = target.tls ? { host: hostname, servername: isIP(hostname) === 0 ? hostname : undefined } : undefined
      const metadata = { ...(target.metadata ?? {}) }
      if (target.secrets?.bearerToken) metadata.authorization = `Bearer ${target.secrets.bearerToken}`
      const connecting = performance.now()
      try {
        const status = await healthCall(
          grpc,
          {
            target: channelTarget,
            credentials: observingCredentials(grpc, tls, seen),
            authority: `${isIPv6(hostname) ? `[${hostname}]` : hostname}:${port}`,
          },
          { service, metadata, deadline: Date.now() + Math.max(1, context.timeoutMs - elapsedSince(started)) },
          context.signal,
          () => {
            firstByteAt = performance.now()
          },
        )
        const problem = seen.tlsSocket ? certificateProblem(seen.tlsSocket) : undefined
        const verdict: Verdict =
          problem && !target.ignoreTlsErrors
            ? { status: 'down', error: problem, errorKind: tlsErrorKind(problem) }
            : servingVerdict(status, service)
        return { ...verdict, ...measured(connecting, vetted.address) }
      } catch (error) {
        if (!isServiceError(error)) throw error
        const verdict = callFailure(grpc, error, seen, service, context)
        const cause = seen.handshakeError ?? connectionError(tidyDetails(error.details))
        if (!verdict) return failed(cause, context, started, measured(connecting, vetted.address))
        return { ...verdict, ...measured(connecting, vetted.address) }
      }
    } catch (error) {
      return failed(error, context, started, dnsMs !== undefined ? { phases: { dnsMs } } : {})
    }
  },
}
