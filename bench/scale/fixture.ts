import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * bench/scale's target, in a process of its own so that its CPU is not charged to the bench:
 * `count` plain HTTP servers on 127.0.0.1 that answer 200 on any path (monitors share them
 * with distinct paths). GET /__hits answers how many checks it served, a count independent
 * of the probes' own. Prints `{"ports":[...]}` once all listen.
 */
const count = Number(process.argv[2] ?? 4)
const body = '<html><head><title>scale</title></head><body>ok</body></html>'
let hits = 0
const ports = await Promise.all(
  Array.from({ length: count }, () => {
    const server = createServer((request, response) => {
      if (request.url === '/__hits') {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ hits }))
        return
      }
      hits += 1
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end(body)
    })
    // Probes open a fresh connection per check and close it; nothing to keep alive.
    server.keepAliveTimeout = 0
    return new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', 2048, () => resolve((server.address() as AddressInfo).port)),
    )
  }),
)
process.stdout.write(`${JSON.stringify({ ports })}\n`)
