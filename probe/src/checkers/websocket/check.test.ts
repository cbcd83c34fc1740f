import { createServer as createTcpServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selfSignedCertificate } from '../../testing/certificate.ts'
import { closedPort, closeServer, listenLocal, startTarpit, testContext } from '../../testing/fixtures.ts'
import { startWebSocketServer, type WebSocketFixture } from '../../testing/websocket-server.ts'
import { websocketChecker } from './check.ts'

describe('websocketChecker', () => {
  let server: WebSocketFixture
  let secure: WebSocketFixture

  beforeAll(async () => {
    server = await startWebSocketServer({
      refuse: (path) => (path === '/private' ? 403 : undefined),
      onConnection: (socket, path) => {
        if (path === '/greet') socket.send('hello from the fixture v2')
        else if (path === '/bye') socket.close(4001, 'shift over')
        else if (path !== '/silent') socket.on('message', (data) => socket.send(data))
      },
    })
    secure = await startWebSocketServer({ certificate: await selfSignedCertificate('ws-fixture') })
  })
  afterAll(async () => {
    await server.close()
    await secure.close()
  })

  const check = (options: Record<string, unknown> = {}, context = testContext(), port = server.port) =>
    websocketChecker.check({ kind: 'websocket', host: '127.0.0.1', port, ...options }, context)

  it('is up when the upgrade is accepted, with the handshake times and status 101', async () => {
    const outcome = await check({ path: '/echo?room=1' })
    expect(outcome).toMatchObject({ status: 'up', statusCode: 101, address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThanOrEqual(0)
    expect(outcome.phases?.firstByteMs).toBeGreaterThan(0)
    expect(server.handshakes.at(-1)).toMatchObject({
      path: '/echo?room=1',
      headers: { host: `127.0.0.1:${server.port}` },
    })
  })

  it('sends the message and checks the reply for the text', async () => {
    expect(await check({ send: 'ping 42', replyContains: 'ping 42' })).toMatchObject({ status: 'up' })
    expect(await check({ send: 'ping 42', replyContains: 'pong' })).toMatchObject({
      status: 'down',
      errorKind: 'reply_mismatch',
      error: 'the reply "ping 42" does not contain "pong"',
    })
  })

  it('checks the server’s greeting against the pattern when nothing is sent', async () => {
    expect(await check({ path: '/greet', replyMatches: 'fixture v\\d' })).toMatchObject({ status: 'up' })
    expect(await check({ path: '/greet', replyMatches: '^welcome' })).toMatchObject({
      status: 'down',
      errorKind: 'reply_mismatch',
      error: 'the reply "hello from the fixture v2" does not match /^welcome/',
    })
  })

  it('is down with reply_mismatch when no message comes within the timeout', async () => {
    const started = performance.now()
    const outcome = await check({ path: '/silent', replyContains: 'anything' }, testContext(300))
    expect(performance.now() - started).toBeLessThan(800)
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'reply_mismatch', error: 'no message within 300 ms' })
  })

  it('waits for the server to close and compares the close code', async () => {
    expect(await check({ path: '/bye', closeCode: 4001 })).toMatchObject({ status: 'up' })
    expect(await check({ path: '/bye', closeCode: 1000 })).toMatchObject({
      status: 'down',
      errorKind: 'close_code',
      error: 'the server closed with code 4001 ("shift over"), expected 1000',
    })
  })

  it('is down with protocol_error and the HTTP status when the upgrade is refused', async () => {
    expect(await check({ path: '/private' })).toMatchObject({
      status: 'down',
      errorKind: 'protocol_error',
      statusCode: 403,
      error: 'the server answered HTTP 403 instead of switching to WebSocket',
    })
  })

  it('offers the subprotocols, sends the headers and the authorization, and never reports the secret', async () => {
    const authorization = 'Bearer ws-secret-5ab7e1'
    const outcome = await check({
      path: '/private',
      headers: { Origin: 'https://console.example' },
      subprotocols: ['graphql-ws', 'json'],
      secrets: { authorization },
    })
    expect(server.handshakes.at(-1)?.headers).toMatchObject({
      origin: 'https://console.example',
      'sec-websocket-protocol': 'graphql-ws,json',
      authorization,
    })
    const accepted = await check({ subprotocols: ['graphql-ws'], secrets: { authorization } })
    expect(accepted.status).toBe('up')
    expect(JSON.stringify([outcome, accepted])).not.toContain('ws-secret-5ab7e1')
  })

  it('reports an untrusted certificate as tls_invalid, and is up with it when told to ignore it', async () => {
    const strict = await check({ tls: true }, testContext(), secure.port)
    expect(strict).toMatchObject({
      status: 'down',
      errorKind: 'tls_invalid',
      certificate: { valid: false, subject: 'CN=ws-fixture' },
    })
    const lenient = await check(
      { tls: true, ignoreTlsErrors: true, send: 'x', replyContains: 'x' },
      testContext(),
      secure.port,
    )
    expect(lenient).toMatchObject({ status: 'up', certificate: { valid: false, subject: 'CN=ws-fixture' } })
    expect(lenient.phases?.tlsMs).toBeGreaterThan(0)
  })

  it('is down with protocol_error against a server that does not speak HTTP', async () => {
    const banner = createTcpServer((socket) => socket.resume().end('SSH-2.0-OpenSSH_9.6\r\n'))
    const port = await listenLocal(banner)
    try {
      expect(await check({}, testContext(), port)).toMatchObject({ status: 'down', errorKind: 'protocol_error' })
    } finally {
      await closeServer(banner)
    }
  })

  it('is down with connect_refused when nothing listens', async () => {
    expect(await check({}, testContext(), await closedPort())).toMatchObject({
      status: 'down',
      errorKind: 'connect_refused',
    })
  })

  it('ends within the timeout with timeout against a server that never answers the handshake', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await check({}, testContext(300), tarpit.port)
      expect(performance.now() - started).toBeLessThan(800)
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    } finally {
      await tarpit.close()
    }
  })

  it('refuses a loopback target unless private targets are allowed', async () => {
    const handshakes = server.handshakes.length
    expect(await check({}, testContext(2000, false))).toMatchObject({
      status: 'down',
      errorKind: 'refused_private_target',
    })
    expect(server.handshakes.length).toBe(handshakes)
  })
})
