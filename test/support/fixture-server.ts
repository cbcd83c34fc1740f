import { createServer, type Server } from 'node:http'

export interface FixtureServer {
  url: string
  hits(): number
  /** Makes every later request answer `status` (500 to make the target fail). */
  setStatus(status: number): void
  close(): Promise<void>
}

/** A local HTTP target for probes: answers 200 with a small page and counts requests. */
export async function startFixtureServer(): Promise<FixtureServer> {
  let hits = 0
  let status = 200
  const server: Server = createServer((_request, response) => {
    hits += 1
    response.writeHead(status, { 'content-type': 'text/html' })
    response.end('<html><head><title>Fixture</title></head><body>ok</body></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('fixture server has no port')
  return {
    url: `http://127.0.0.1:${address.port}/`,
    hits: () => hits,
    setStatus: (next) => {
      status = next
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
