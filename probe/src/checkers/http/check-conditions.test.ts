import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { HttpTarget } from '@guard/shared'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeServer, listenLocal, testContext } from '../../testing/fixtures.ts'
import { httpChecker } from './check.ts'

function route(request: IncomingMessage, response: ServerResponse) {
  if (request.url === '/missing') {
    response.writeHead(404, { 'content-type': 'text/plain' })
    response.end('no such thing')
    return
  }
  if (request.url === '/whoami') {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ sawAuthorization: request.headers.authorization ?? null }))
    return
  }
  response.writeHead(200, { 'content-type': 'application/json', 'x-build': '42' })
  response.end(JSON.stringify({ data: { id: 2, items: [{ id: 'a' }, { id: 'b' }] }, status: 'ok' }))
}

describe('httpChecker with conditions', () => {
  let server: Server
  let base: string

  beforeAll(async () => {
    server = createServer(route)
    base = `http://127.0.0.1:${await listenLocal(server)}`
  })
  afterAll(() => closeServer(server))

  const check = (path: string, options: Partial<HttpTarget>, allowPrivate = true) =>
    httpChecker.check(
      { kind: 'http', url: `${base}${path}`, method: 'GET', ...options },
      testContext(1000, allowPrivate),
    )

  it('is up when every condition holds', async () => {
    const outcome = await check('/', {
      conditions: [
        '[STATUS] == 200',
        '[BODY].data.id == 2',
        'len([BODY].data.items) > 0',
        '[BODY].data.items[1].id == b',
        '[HEADERS].X-Build >= 42',
        '[RESPONSE_TIME] < 1s',
        '[IP] == 127.0.0.1',
        '[CONNECTED] == true',
      ],
    })
    expect(outcome).toMatchObject({ status: 'up', statusCode: 200 })
  })

  it('is down with condition_failed, naming the first condition that failed and the value it found', async () => {
    const outcome = await check('/', { conditions: ['[STATUS] == 200', '[BODY].data.id == 1', '[BODY].status == no'] })
    expect(outcome).toMatchObject({
      status: 'down',
      statusCode: 200,
      errorKind: 'condition_failed',
      error: '[BODY].data.id == 1: was 2',
    })
  })

  it('lets a [STATUS] condition replace the default expected status, but not an explicit one', async () => {
    expect(await check('/missing', { conditions: ['[STATUS] == 404', '[BODY] == "no such thing"'] })).toMatchObject({
      status: 'up',
      statusCode: 404,
    })
    expect(await check('/missing', { conditions: ['[BODY] == "no such thing"'] })).toMatchObject({
      status: 'down',
      errorKind: 'status_mismatch',
    })
    expect(await check('/missing', { expectedStatus: [200], conditions: ['[STATUS] == 404'] })).toMatchObject({
      status: 'down',
      errorKind: 'status_mismatch',
    })
  })

  it('runs after the existing assertions, which keep their own error kinds', async () => {
    expect(await check('/', { keyword: 'absent', conditions: ['[BODY].data.id == 1'] })).toMatchObject({
      status: 'down',
      errorKind: 'keyword_missing',
    })
  })

  it('never quotes the credentials of the request, even when the answer echoes them', async () => {
    const outcome = await check('/whoami', {
      auth: { type: 'bearer', token: 'sup3r-s3cret' },
      conditions: ['[BODY].sawAuthorization == nobody'],
    })
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'condition_failed' })
    expect(outcome.error).toBe('[BODY].sawAuthorization == nobody: was "Bearer ***"')
    expect(JSON.stringify(outcome)).not.toContain('sup3r-s3cret')
  })

  it('refuses a loopback target without the allow flag before any condition is read', async () => {
    expect(await check('/', { conditions: ['[STATUS] == 200'] }, false)).toMatchObject({
      status: 'down',
      errorKind: 'refused_private_target',
    })
  })
})

describe('httpChecker conditions on the certificate', () => {
  let server: HttpsServer
  let base: string

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: 'guard-fixture' }], {
      keyType: 'ec',
      notBeforeDate: new Date(Date.now() - 86_400_000),
      notAfterDate: new Date(Date.now() + 30 * 86_400_000),
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    })
    server = createHttpsServer({ key: pems.private, cert: pems.cert }, route)
    base = `https://127.0.0.1:${await listenLocal(server)}`
  })
  afterAll(() => closeServer(server))

  it('reads the time left on the certificate', async () => {
    const check = (condition: string) =>
      httpChecker.check(
        { kind: 'http', url: `${base}/`, method: 'GET', ignoreTlsErrors: true, conditions: [condition] },
        testContext(),
      )
    expect(await check('[CERTIFICATE_EXPIRATION] > 48h')).toMatchObject({ status: 'up' })
    const failing = await check('[CERTIFICATE_EXPIRATION] > 1000h')
    expect(failing).toMatchObject({ status: 'down', errorKind: 'condition_failed' })
    expect(failing.error).toMatch(/^\[CERTIFICATE_EXPIRATION\] > 1000h: was 7(19|20)h\d*m?$/)
  })
})
