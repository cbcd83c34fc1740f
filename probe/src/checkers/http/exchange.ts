import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { CheckResult } from '@guard/shared'
import { certificateOf, certificateProblem } from '../certificate.ts'
import { roundMs } from '../outcome.ts'
import { secureContext } from '../secure-context.ts'

/** Bodies are kept up to this size for keyword, regex and JSON assertions; the rest is counted and dropped. */
export const KEPT_BODY_BYTES = 1024 * 1024

export interface ExchangeRequest {
  url: URL
  /** Vetted by the target guard; the connection goes here, the name only into Host and SNI. */
  address: string
  method: string
  headers: Record<string, string>
  body: string | undefined
  signal: AbortSignal
}

export interface ExchangeResponse {
  statusCode: number
  headers: IncomingHttpHeaders
  body: Buffer
  phases: NonNullable<CheckResult['phases']>
  certificate: CheckResult['certificate']
  certificateProblem: string | undefined
}

const USER_AGENT = 'Guard-Probe/0.1 (+https://github.com/guard-monitoring)'

/**
 * One HTTP exchange on a connection of its own (no agent, no keep-alive), so every check pays
 * for and measures connect, TLS handshake, first byte and transfer. Times are in milliseconds
 * from the moment the socket is requested.
 */
export function exchange(request: ExchangeRequest): Promise<ExchangeResponse> {
  const secure = request.url.protocol === 'https:'
  const hostname = request.url.hostname.replace(/^\[(.*)\]$/, '$1')
  const send = secure ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let connectedAt: number | undefined
    let secureAt: number | undefined
    let socket: TLSSocket | undefined
    const req = send({
      host: request.address,
      port: request.url.port || (secure ? 443 : 80),
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method,
      agent: false,
      signal: request.signal,
      headers: {
        'user-agent': USER_AGENT,
        ...request.headers,
        host: request.url.host,
        connection: 'close',
      },
      ...(secure
        ? { rejectUnauthorized: false, secureContext, ...(isIP(hostname) === 0 ? { servername: hostname } : {}) }
        : {}),
    })
    req.once('socket', (raw) => {
      raw.once('connect', () => {
        connectedAt = performance.now()
      })
      if (secure) {
        socket = raw as TLSSocket
        socket.once('secureConnect', () => {
          secureAt = performance.now()
        })
      }
    })
    req.once('error', reject)
    req.once('response', (response) => {
      const firstByteAt = performance.now()
      const chunks: Buffer[] = []
      let kept = 0
      response.on('data', (chunk: Buffer) => {
        if (kept >= KEPT_BODY_BYTES) return
        chunks.push(chunk)
        kept += chunk.length
      })
      response.once('error', reject)
      response.once('end', () => {
        const endAt = performance.now()
        const connectEnd = connectedAt ?? started
        resolve({
          statusCode: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).subarray(0, KEPT_BODY_BYTES),
          phases: {
            connectMs: roundMs(connectEnd - started),
            ...(secure ? { tlsMs: roundMs((secureAt ?? connectEnd) - connectEnd) } : {}),
            firstByteMs: roundMs(firstByteAt - (secureAt ?? connectEnd)),
            transferMs: roundMs(endAt - firstByteAt),
          },
          certificate: socket ? certificateOf(socket) : undefined,
          certificateProblem: socket ? certificateProblem(socket) : undefined,
        })
      })
    })
    req.end(request.body)
  })
}
