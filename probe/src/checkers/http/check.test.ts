import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { HttpTarget } from '@guard/shared'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, closeServer, listenLocal, testContext } from '../../testing/fixtures.ts'
import { httpChecker } from './check.ts'

function route(request: IncomingMessage, response: ServerResponse) {
  const url = request.url ?? '/'
  if (url === '/slow') {
    setTimeout(() => response.end('late'), 2000)
    return
  }
  if (url === '/redirect') {
    response.writeHead(302, { location: '/' })
    response.end()
    return
  }
  if (url === '/loop') {
    response.writeHead(302, { location: '/loop' })
    response.end()
    return
  }
  if (url === '/json') {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ status: 'ok', checks: [{ name: 'db', healthy: true }] }))
    return
  }
  if (url === '/echo') {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ method: request.method, token: request.headers['x-token'] ?? null, body }))
    })
    return
  }
  if (url === '/lag') {
    setTimeout(() => response.end('fine but slow'), 150)
    return
  }
  response.writeHead(url === '/broken' ? 503 : 200)
  response.end('<html><title>ok page</title></html>')
}

describe('httpChecker over plain HTTP', () => {
  let server: Server
  let base: string

  beforeAll(async () => {
    server = createServer(route)
    base = `http://127.0.0.1:${await listenLocal(server)}`
  })
  afterAll(() => closeServer(server))

  const check = (path: string, options: Partial<HttpTarget> = {}, timeoutMs = 1000) =>
    httpChecker.check({ kind: 'http', url: `${base}${path}`, method: 'GET', ...options }, testContext(timeoutMs))

  it('reports up with the status code, the vetted address and every timing phase of a 200', async () => {
    const outcome = await check('/')
    expect(outcome).toMatchObject({ status: 'up', statusCode: 200, address: '127.0.0.1' })
    expect(outcome.phases).toEqual({
      dnsMs: 0,
      connectMs: expect.any(Number),
      firstByteMs: expect.any(Number),
      transferMs: expect.any(Number),
    })
    expect(outcome.responseTimeMs).toBeGreaterThan(0)
  })

  it('follows redirects to the final answer', async () => {
    expect(await check('/redirect')).toMatchObject({ status: 'up', statusCode: 200 })
  })

  it('reports the redirect itself when told not to follow', async () => {
    expect(await check('/redirect', { followRedirects: false })).toMatchObject({ status: 'up', statusCode: 302 })
  })

  it('does not hand credentials to another origin on a redirect', async () => {
    const other = createServer((request, response) =>
      response.end(JSON.stringify({ auth: request.headers.authorization ?? null, token: request.headers['x-token'] })),
    )
    const otherPort = await listenLocal(other)
    const hop = createServer((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` })
      response.end()
    })
    const hopPort = await listenLocal(hop)
    const outcome = await httpChecker.check(
      {
        kind: 'http',
        url: `http://127.0.0.1:${hopPort}/`,
        method: 'GET',
        headers: { Authorization: 'Bearer secret', 'x-token': 'kept' },
        keyword: '{"auth":null,"token":"kept"}',
      },
      testContext(),
    )
    await closeServer(hop)
    await closeServer(other)
    expect(outcome).toMatchObject({ status: 'up', statusCode: 200 })
  })

  it('gives up on a redirect loop with a clear error', async () => {
    expect(await check('/loop')).toMatchObject({ status: 'down', error: 'more than 10 redirects' })
  })

  it('reports down with the status for a 5xx, and up when that status is expected', async () => {
    expect(await check('/broken')).toMatchObject({
      status: 'down',
      statusCode: 503,
      error: 'HTTP 503, expected 200-399',
      errorKind: 'status_mismatch',
    })
    expect(await check('/broken', { expectedStatus: [503] })).toMatchObject({ status: 'up', statusCode: 503 })
    expect(await check('/', { expectedStatus: ['201-204'] })).toMatchObject({
      status: 'down',
      error: 'HTTP 200, expected 201-204',
      errorKind: 'status_mismatch',
    })
  })

  it('sends the method, headers and body of the target', async () => {
    const outcome = await check('/echo', {
      method: 'POST',
      headers: { 'x-token': 'secret' },
      body: 'hello',
      jsonPath: { path: '$', equals: { method: 'POST', token: 'secret', body: 'hello' } },
    })
    expect(outcome).toMatchObject({ status: 'up', statusCode: 201 })
  })

  it('checks a keyword and a regular expression in the body', async () => {
    expect(await check('/', { keyword: 'ok page' })).toMatchObject({ status: 'up' })
    expect(await check('/', { keyword: 'missing' })).toMatchObject({
      status: 'down',
      error: 'keyword "missing" not found in the body',
    })
    expect(await check('/', { regex: '<title>\\w+ page</title>' })).toMatchObject({ status: 'up' })
    expect(await check('/', { regex: '^\\{' })).toMatchObject({ status: 'down', error: 'body does not match /^\\{/' })
  })

  it('asserts a JSONPath value, including inside arrays', async () => {
    expect(await check('/json', { jsonPath: { path: '$.status', equals: 'ok' } })).toMatchObject({ status: 'up' })
    expect(
      await check('/json', { jsonPath: { path: '$.checks[?(@.name=="db")].healthy', equals: true } }),
    ).toMatchObject({ status: 'up' })
    expect(await check('/json', { jsonPath: { path: '$.status', equals: 'fail' } })).toMatchObject({
      status: 'down',
      error: 'JSONPath $.status is "ok", expected "fail"',
    })
    expect(await check('/json', { jsonPath: { path: '$.nothing' } })).toMatchObject({
      status: 'down',
      error: 'JSONPath $.nothing matched nothing',
    })
    expect(await check('/', { jsonPath: { path: '$.status' } })).toMatchObject({ status: 'down' })
  })

  it('marks a slow but correct answer degraded above the threshold', async () => {
    expect(await check('/lag', { degradedAboveMs: 50 })).toMatchObject({ status: 'degraded', statusCode: 200 })
    expect(await check('/lag', { degradedAboveMs: 5000 })).toMatchObject({ status: 'up' })
  })

  it('reports down with a clear error within the timeout for a slow target', async () => {
    const outcome = await check('/slow', {}, 200)
    expect(outcome).toMatchObject({ status: 'down', error: 'timed out after 200 ms' })
    expect(outcome.responseTimeMs).toBeLessThan(1500)
  })

  it('reports down with the reason for a refused connection', async () => {
    const port = await closedPort()
    const outcome = await httpChecker.check(
      { kind: 'http', url: `http://127.0.0.1:${port}/`, method: 'GET' },
      testContext(1000),
    )
    expect(outcome.status).toBe('down')
    expect(outcome.error).toMatch(/ECONNREFUSED/)
  })

  it('refuses a loopback target without the allow flag, before connecting', async () => {
    const outcome = await httpChecker.check({ kind: 'http', url: `${base}/`, method: 'GET' }, testContext(1000, false))
    expect(outcome).toMatchObject({
      status: 'down',
      error: expect.stringMatching(/^refused: 127\.0\.0\.1, a loopback/),
    })
  })
})

describe('httpChecker over HTTPS with a self-signed certificate', () => {
  const notAfter = new Date('2031-03-04T05:06:07.000Z')
  let server: HttpsServer
  let base: string

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: 'guard-fixture' }], {
      keyType: 'ec',
      notBeforeDate: new Date('2025-01-01T00:00:00.000Z'),
      notAfterDate: notAfter,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    })
    server = createHttpsServer({ key: pems.private, cert: pems.cert }, route)
    base = `https://127.0.0.1:${await listenLocal(server)}`
  })
  afterAll(() => closeServer(server))

  it('reports down for an untrusted certificate, still describing it', async () => {
    const outcome = await httpChecker.check({ kind: 'http', url: `${base}/`, method: 'GET' }, testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      statusCode: 200,
      error: 'certificate not valid: DEPTH_ZERO_SELF_SIGNED_CERT',
      certificate: {
        valid: false,
        expiresAt: notAfter.toISOString(),
        validFrom: '2025-01-01T00:00:00.000Z',
        subject: 'CN=guard-fixture',
        issuer: 'CN=guard-fixture',
      },
    })
  })

  it('reports up with the TLS phase when told to ignore certificate errors', async () => {
    const outcome = await httpChecker.check(
      { kind: 'http', url: `${base}/`, method: 'GET', ignoreTlsErrors: true },
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up', statusCode: 200, certificate: { expiresAt: notAfter.toISOString() } })
    expect(outcome.phases?.tlsMs).toBeGreaterThan(0)
    expect(outcome.phases?.firstByteMs).toBeGreaterThanOrEqual(0)
  })
})
