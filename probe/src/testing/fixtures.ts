import type { Server } from 'node:net'
import type { CheckContext } from '../checker.ts'

/** A check context as the scheduler builds it, with private targets allowed for 127.0.0.1 fixtures. */
export const testContext = (timeoutMs = 2000, allowPrivate = true): CheckContext => ({
  timeoutMs,
  signal: AbortSignal.timeout(timeoutMs),
  allowPrivate,
})

/** Listens on an ephemeral 127.0.0.1 port and returns it. */
export async function listenLocal(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('fixture has no port')
  return address.port
}

export function closeServer(server: Server & { closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.()
  return new Promise((resolve) => server.close(() => resolve()))
}

/** A port nothing listens on: bound a moment ago, then released. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net')
  const server = createServer()
  const port = await listenLocal(server)
  await closeServer(server)
  return port
}

/**
 * A tarpit on 127.0.0.1: accepts every connection and never sends a byte, so an HTTP or TLS
 * check against it hangs until its timeout. Counts the connections open at once.
 */
export async function startTarpit() {
  const { createServer } = await import('node:net')
  const sockets = new Set<import('node:net').Socket>()
  let mostOpen = 0
  const server = createServer((socket) => {
    sockets.add(socket)
    mostOpen = Math.max(mostOpen, sockets.size)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  const port = await listenLocal(server)
  return {
    port,
    /** The most connections that were open at the same time. */
    mostOpen: () => mostOpen,
    async close() {
      for (const socket of sockets) socket.destroy()
      await closeServer(server)
    },
  }
}
