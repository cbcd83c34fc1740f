import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { SelfSignedPems } from './certificate.ts'
import { closeServer, listenLocal } from './fixtures.ts'

export interface WebSocketFixture {
  port: number
  /** The path and headers of every opening handshake received. */
  handshakes: Array<{ path: string; headers: IncomingHttpHeaders }>
  close(): Promise<void>
}

export interface WebSocketFixtureOptions {
  /** What the server does with each accepted socket; by default it echoes every message. */
  onConnection?: (socket: WebSocket, path: string) => void
  /** A status to refuse the upgrade of a path with, or undefined to accept it. */
  refuse?: (path: string) => number | undefined
  /** Serve wss:// with this certificate. */
  certificate?: SelfSignedPems
}

const echo = (socket: WebSocket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }))

/** A WebSocket server (ws's WebSocketServer) on 127.0.0.1 that picks the first subprotocol offered. */
export async function startWebSocketServer(options: WebSocketFixtureOptions = {}): Promise<WebSocketFixture> {
  const { WebSocketServer } = await import('ws')
  const handshakes: WebSocketFixture['handshakes'] = []
  const sockets = new Set<WebSocket>()
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => offered.values().next().value ?? false,
  })
  const server = options.certificate ? createHttpsServer(options.certificate) : createHttpServer()
  server.on('upgrade', (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    const path = request.url ?? '/'
    handshakes.push({ path, headers: request.headers })
    const status = options.refuse?.(path)
    if (status !== undefined) {
      stream.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`)
      return
    }
    wss.handleUpgrade(request, stream, head, (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {})
      ;(options.onConnection ?? echo)(socket, path)
    })
  })
  const port = await listenLocal(server)
  return {
    port,
    handshakes,
    async close() {
      for (const socket of sockets) socket.terminate()
      wss.close()
      await closeServer(server)
    },
  }
}
