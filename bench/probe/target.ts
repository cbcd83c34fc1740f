import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { generate } from 'selfsigned'

/**
 * The benchmark's target, in a process of its own so that its CPU time is not charged to the
 * probe under test. Prints `{"http":port,"https":port}` once both listen.
 */
const body = '<html><head><title>bench</title></head><body>ok</body></html>'
const answer = (_request: unknown, response: import('node:http').ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/html' })
  response.end(body)
}
const pems = await generate([{ name: 'commonName', value: 'bench-target' }], { keyType: 'ec', algorithm: 'sha256' })
const http = createHttpServer(answer)
const https = createHttpsServer({ key: pems.private, cert: pems.cert }, answer)
// Fresh connections per check arrive in bursts; the default backlog of 511 is enough, keep-alive is not wanted.
http.keepAliveTimeout = 0
https.keepAliveTimeout = 0
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', 2048, resolve))
await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', 2048, resolve))
process.stdout.write(
  `${JSON.stringify({ http: (http.address() as AddressInfo).port, https: (https.address() as AddressInfo).port })}\n`,
)
