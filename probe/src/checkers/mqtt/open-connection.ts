import { connect as netConnect, type Socket } from 'node:net'
import { type TLSSocket, connect as tlsConnect } from 'node:tls'
import { secureContext } from '../secure-context.ts'

export interface OpenedConnection {
  socket: Socket
  connectedAt: number
  secureAt?: number
  tlsSocket?: TLSSocket
}

export interface TlsPeer {
  /** SNI and the name the certificate must carry; undefined for an IP address. */
  servername: string | undefined
}

/**
 * A TCP connection to the vetted address, TLS on top when asked (the certificate is kept for the
 * result, verified or not), destroyed when the signal aborts before it is up.
 */
export function openConnection(
  address: string,
  port: number,
  tls: TlsPeer | undefined,
  signal: AbortSignal,
): Promise<OpenedConnection> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted()
    let connectedAt = performance.now()
    const socket = tls
      ? tlsConnect({
          host: address,
          port,
          ...(tls.servername ? { servername: tls.servername } : {}),
          secureContext,
          rejectUnauthorized: false,
        })
      : netConnect({ host: address, port })
    const onAbort = () => socket.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    const settle = () => {
      signal.removeEventListener('abort', onAbort)
      socket.off('error', reject)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    socket.once('error', reject)
    socket.once('connect', () => {
      connectedAt = performance.now()
      if (tls) return
      settle()
      resolve({ socket, connectedAt })
    })
    if (tls) {
      const tlsSocket = socket as TLSSocket
      tlsSocket.once('secureConnect', () => {
        settle()
        resolve({ socket, connectedAt, secureAt: performance.now(), tlsSocket })
      })
    }
  })
}
