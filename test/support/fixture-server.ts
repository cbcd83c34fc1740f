import { createServer, type Server } from 'node:http'

export interface FixtureServer {
  url: string
  hits(): number
  close(): Promise<void>
}

/** A local HTTP target for probes: answers 200 with a small page and counts requests. */
export async function startFixtureServer(): Promise<FixtureServer> {
  let hits = 0
  const server: Server = createServer((_request, response) => {
    hits += 1
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<html><head><title>Fixture</title></head><body>ok</body></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('fixture server has no port')
  return {
    url: `http://127.0.0.1:${address.port}/`,
    hits: () => hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
