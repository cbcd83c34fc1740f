import { createServer, type Server } from 'node:http'
import type { Registry } from 'prom-client'

/** What /healthz answers: 503 when `serving` is false. */
export interface ProbeHealth {
  serving: boolean
  body: Record<string, unknown>
}

export interface OpsServer {
  url: string
  close(): Promise<void>
}

/** `/healthz` and Prometheus `/metrics` on a small port of their own, apart from any API. */
export async function startOpsServer(
  host: string,
  port: number,
  registry: Registry,
  health: () => ProbeHealth,
): Promise<OpsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]
    if (request.method !== 'GET') {
      response.writeHead(405).end()
      return
    }
    if (path === '/healthz') {
      const { serving, body } = health()
      response.writeHead(serving ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      return
    }
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => response.writeHead(500).end(String(error)),
      )
      return
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const bound = address && typeof address === 'object' ? address.port : port
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
