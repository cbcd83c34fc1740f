import { isIP, isIPv6 } from 'node:net'
import type { CheckResult } from '@guard/shared'
import { truncateText } from '@guard/shared'
import type { CheckContext, Checker, CheckOutcome } from '../../checker.ts'
import { certificateOf, certificateProblem } from '../certificate.ts'
import { elapsedSince, failed, roundMs, tlsErrorKind } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'
import { type SessionEvent, UpgradeRefusedError, WebSocketSession } from './session.ts'

type WebSocketTarget = Parameters<Checker<'websocket'>['check']>[0]
type Verdict = Pick<CheckResult, 'status' | 'error' | 'errorKind'>

/** Loaded on the first WebSocket check, so a probe that runs none never loads ws; reused after. */
let webSocketClass: Promise<typeof import('ws').default> | undefined
const loadWebSocket = () => {
  webSocketClass ??= import('ws').then((module) => module.default)
  return webSocketClass
}

const preview = (text: string) => JSON.stringify(truncateText(text, 100))

/** System errors (refused, reset, TLS) keep their own kind; anything else after connecting is the protocol's. */
const isSystemError = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code
  return typeof code === 'string' && /^(E[A-Z]+|ERR_SSL_.*|ERR_TLS_.*)$/.test(code)
}

function replyVerdict(target: WebSocketTarget, event: SessionEvent, context: CheckContext): Verdict | undefined {
  if (event.type === 'timeout') {
    return { status: 'down', error: `no message within ${context.timeoutMs} ms`, errorKind: 'reply_mismatch' }
  }
  if (event.type === 'close') {
    return {
      status: 'down',
      error: `the server closed the connection (code ${event.code}) before sending a message`,
      errorKind: 'reply_mismatch',
    }
  }
  if (event.type === 'error') {
    return { status: 'down', error: `the connection failed: ${event.error.message}`, errorKind: 'protocol_error' }
  }
  if (target.replyContains !== undefined && !event.text.includes(target.replyContains)) {
    const error = `the reply ${preview(event.text)} does not contain ${preview(target.replyContains)}`
    return { status: 'down', error, errorKind: 'reply_mismatch' }
  }
  if (target.replyMatches !== undefined && !new RegExp(target.replyMatches).test(event.text)) {
    const error = `the reply ${preview(event.text)} does not match /${truncateText(target.replyMatches, 100)}/`
    return { status: 'down', error, errorKind: 'reply_mismatch' }
  }
  return undefined
}

/** Waits for the server's close (messages before it are skipped) and compares its code. */
async function closeVerdict(session: WebSocketSession, expected: number, context: CheckContext): Promise<Verdict> {
  for (;;) {
    const event = await session.next(context.signal)
    if (event.type === 'message') continue
    if (event.type === 'timeout') {
      return {
        status: 'down',
        error: `the server did not close the connection within ${context.timeoutMs} ms (expected code ${expected})`,
        errorKind: 'close_code',
      }
    }
    if (event.type === 'error') {
      return { status: 'down', error: `the connection failed: ${event.error.message}`, errorKind: 'protocol_error' }
    }
    if (event.code === expected) return { status: 'up' }
    const reason = event.reason ? ` (${preview(event.reason)})` : ''
    return {
      status: 'down',
      error: `the server closed with code ${event.code}${reason}, expected ${expected}`,
      errorKind: 'close_code',
    }
  }
}

async function exchangeVerdict(
  target: WebSocketTarget,
  session: WebSocketSession,
  context: CheckContext,
): Promise<Verdict> {
  const certificateFailure = session.tlsSocket ? certificateProblem(session.tlsSocket) : undefined
  if (certificateFailure && !target.ignoreTlsErrors) {
    return { status: 'down', error: certificateFailure, errorKind: tlsErrorKind(certificateFailure) }
  }
  if (target.send !== undefined) session.send(target.send)
  if (target.replyContains !== undefined || target.replyMatches !== undefined) {
    const mismatch = replyVerdict(target, await session.next(context.signal), context)
    if (mismatch) return mismatch
  }
  if (target.closeCode !== undefined) return closeVerdict(session, target.closeCode, context)
  return { status: 'up' }
}

const urlHost = (hostname: string) => (isIPv6(hostname) ? `[${hostname}]` : hostname)

/**
 * A WebSocket opening handshake on a fresh connection to the vetted address (Host and SNI keep
 * the name), then the optional message, reply and close code.
 */
export const websocketChecker: Checker<'websocket'> = {
  kind: 'websocket',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    let session: WebSocketSession | undefined
    let dnsMs: number | undefined
    let connecting = started
    const measured = (address: string) => {
      const times = session?.times ?? {}
      const connectedAt = times.connectedAt ?? connecting
      return {
        responseTimeMs: elapsedSince(started),
        phases: {
          ...(dnsMs !== undefined ? { dnsMs } : {}),
          ...(times.connectedAt !== undefined ? { connectMs: roundMs(times.connectedAt - connecting) } : {}),
          ...(times.secureAt !== undefined ? { tlsMs: roundMs(times.secureAt - connectedAt) } : {}),
          ...(times.upgradedAt !== undefined
            ? { firstByteMs: roundMs(times.upgradedAt - (times.secureAt ?? connectedAt)) }
            : {}),
        },
        address,
        ...(session?.statusCode !== undefined ? { statusCode: session.statusCode } : {}),
        ...(session?.tlsSocket ? { certificate: certificateOf(session.tlsSocket) } : {}),
      }
    }
    let address: string | undefined
    try {
      const vetted = await vetTarget(target.host, context)
      address = vetted.address
      dnsMs = roundMs(vetted.lookupMs)
      const WebSocket = await loadWebSocket()
      const secure = target.tls === true
      const port = target.port ?? (secure ? 443 : 80)
      const headers = { ...(target.headers ?? {}) }
      if (target.secrets?.authorization) headers.Authorization = target.secrets.authorization
      connecting = performance.now()
      session = new WebSocketSession(WebSocket, {
        url: `${secure ? 'wss' : 'ws'}://${urlHost(vetted.hostname)}:${port}${target.path ?? '/'}`,
        address: vetted.address,
        port,
        servername: isIP(vetted.hostname) === 0 ? vetted.hostname : undefined,
        headers,
        subprotocols: target.subprotocols ?? [],
      })
      await session.open(context.signal)
      const verdict = await exchangeVerdict(target, session, context)
      session.close()
      return { ...verdict, ...measured(vetted.address) }
    } catch (error) {
      session?.terminate()
      const extra = address === undefined ? { responseTimeMs: elapsedSince(started) } : measured(address)
      const connected = session?.times.connectedAt !== undefined
      if (context.signal.aborted || !connected || isSystemError(error)) return failed(error, context, started, extra)
      const message = error instanceof Error ? error.message : String(error)
      const reason = error instanceof UpgradeRefusedError ? message : `the opening handshake failed: ${message}`
      return { status: 'down', error: truncateText(reason, 2000), errorKind: 'protocol_error', ...extra }
    }
  },
}
