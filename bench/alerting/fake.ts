import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request as the fake received it, kept so the bare client can post the very same bytes. */
export interface CapturedRequest {
  path: string
  headers: Record<string, string>
  body: string
}

/** Headers of the connection, not of the message: the replaying client sets its own. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding'])

/**
 * The fake receiver every part posts to: answers 200 with an empty body. Under `/outbox/` it keeps
 * each request for the ceiling's replay; under `/latency/` it notes when the first alert of each
 * monitor (the body's data.monitorId) arrived. Everything else is only counted.
 */
export async function startFakeReceiver() {
  const captured: CapturedRequest[] = []
  const firstAlertAt = new Map<string, number>()
  let answered = 0
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const at = Date.now()
      const path = incoming.url ?? '/'
      const body = Buffer.concat(chunks).toString('utf8')
      if (path.startsWith('/outbox/')) {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = String(value)
        }
        captured.push({ path, headers, body })
      } else if (path.startsWith('/latency/')) {
        const monitorId = (JSON.parse(body) as { data?: { monitorId?: string } }).data?.monitorId
        if (monitorId && !firstAlertAt.has(monitorId)) firstAlertAt.set(monitorId, at)
      }
      answered += 1
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    captured,
    firstAlertAt,
    answered: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function post(origin: string, captured: CapturedRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${origin}${captured.path}`, { method: 'POST', headers: captured.headers }, (answer) => {
      answer.resume()
      answer.on('end', () => resolve(answer.statusCode ?? 0))
      answer.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(captured.body)
  })
}

/**
 * The ceiling: a bare HTTP client (node:http on the global agent, as the outbox's sender) posting
 * the captured requests with `concurrency` in flight, no store, no signing, no bookkeeping.
 * Resolves to how many were answered 200.
 */
export async function postAll(origin: string, requests: CapturedRequest[], concurrency: number): Promise<number> {
  let next = 0
  let ok = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const status = await post(origin, requests[next++]!)
        if (status === 200) ok += 1
      }
    }),
  )
  return ok
}
