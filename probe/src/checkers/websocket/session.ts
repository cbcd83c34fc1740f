import { connect as netConnect, type Socket } from 'node:net'
import { type TLSSocket, connect as tlsConnect } from 'node:tls'
import type WebSocket from 'ws'
import { secureContext } from '../secure-context.ts'

type WebSocketClass = typeof WebSocket

/** The server answered the opening handshake with a plain HTTP response instead of 101. */
export class UpgradeRefusedError extends Error {
  override name = 'UpgradeRefusedError'
  constructor(readonly statusCode: number) {
    super(`the server answered HTTP ${statusCode} instead of switching to WebSocket`)
  }
}

/** What happens on an open WebSocket, in the order it happened. */
export type SessionEvent =
  | { type: 'message'; text: string }
  | { type: 'close'; code: number; reason: string }
  | { type: 'error'; error: Error }
  | { type: 'timeout' }

export interface SessionTimes {
  connectedAt?: number
  secureAt?: number
  upgradedAt?: number
}

export interface OpenRequest {
  url: string
  /** Vetted by the target guard; the connection goes here, the URL's host only into Host and SNI. */
  address: string
  port: number
  /** For TLS: the SNI and the name the certificate must carry; undefined for an IP address. */
  servername: string | undefined
  headers: Record<string, string>
  subprotocols: string[]
}

/**
 * One WebSocket on a connection of its own to the vetted address. Messages, the close and errors
 * are queued from the start, so a greeting the server sends with its handshake is not missed.
 */
export class WebSocketSession {
  readonly times: SessionTimes = {}
  tlsSocket: TLSSocket | undefined
  statusCode: number | undefined
  private readonly socket: WebSocket
  /** The connection itself, destroyed at the end whatever state the WebSocket is left in. */
  private connection: Socket | undefined
  private readonly events: SessionEvent[] = []
  private waiting: ((event: SessionEvent) => void) | undefined

  constructor(WebSocketImpl: WebSocketClass, request: OpenRequest) {
    const secure = request.url.startsWith('wss:')
    this.socket = new WebSocketImpl(request.url, request.subprotocols, {
      headers: request.headers,
      perMessageDeflate: false,
      followRedirects: false,
      maxPayload: 1024 * 1024,
      createConnection: () => this.connect(request, secure),
    })
    this.socket.on('upgrade', (response) => {
      this.times.upgradedAt = performance.now()
      this.statusCode = response.statusCode
    })
    this.socket.on('message', (data) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data
      this.push({ type: 'message', text: bytes.toString('utf8') })
    })
    this.socket.on('close', (code, reason) => this.push({ type: 'close', code, reason: reason.toString('utf8') }))
    // Without a listener an error after the handshake would be thrown on the probe's event loop.
    this.socket.on('error', (error) => this.push({ type: 'error', error }))
  }

  private connect(request: OpenRequest, secure: boolean): Socket {
    const socket = secure
      ? tlsConnect({
          host: request.address,
          port: request.port,
          ...(request.servername ? { servername: request.servername } : {}),
          secureContext,
          rejectUnauthorized: false,
        })
      : netConnect({ host: request.address, port: request.port })
    this.connection = socket
    socket.once('connect', () => {
      this.times.connectedAt = performance.now()
    })
    if (secure) {
      const tlsSocket = socket as TLSSocket
      tlsSocket.once('secureConnect', () => {
        this.times.secureAt = performance.now()
        this.tlsSocket = tlsSocket
      })
    }
    return socket
  }

  /** Resolves once the upgrade is accepted; rejects with why not (UpgradeRefusedError for an HTTP answer). */
  open(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        settle()
        this.terminate()
        reject(error)
      }
      const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      const onOpen = () => {
        settle()
        resolve()
      }
      const onError = (error: Error) => fail(error)
      const onRefused = (_request: unknown, response: { statusCode?: number }) => {
        this.statusCode = response.statusCode
        fail(new UpgradeRefusedError(response.statusCode ?? 0))
      }
      const settle = () => {
        signal.removeEventListener('abort', onAbort)
        this.socket.off('open', onOpen).off('error', onError).off('unexpected-response', onRefused)
      }
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      this.socket.once('open', onOpen).once('error', onError).once('unexpected-response', onRefused)
    })
  }

  /** The next message or close, or `timeout` once the signal aborts. */
  next(signal: AbortSignal): Promise<SessionEvent> {
    const queued = this.events.shift()
    if (queued) return Promise.resolve(queued)
    if (signal.aborted) return Promise.resolve({ type: 'timeout' })
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiting = undefined
        resolve({ type: 'timeout' })
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting = (event) => {
        signal.removeEventListener('abort', onAbort)
        resolve(event)
      }
    })
  }

  send(text: string) {
    this.socket.send(text)
  }

  /** Closes politely with 1000, and drops the connection if the server does not answer within a second. */
  close() {
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.close(1000)
      setTimeout(() => this.terminate(), 1000).unref()
    } else this.terminate()
  }

  terminate() {
    this.socket.terminate()
    this.connection?.destroy()
  }

  private push(event: SessionEvent) {
    const waiting = this.waiting
    this.waiting = undefined
    if (waiting) waiting(event)
    else this.events.push(event)
  }
}
