import { createServer as createHttpServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SelfSignedPems, selfSignedCertificate } from '../../testing/certificate.ts'
import { closedPort, closeServer, listenLocal, startTarpit, testContext } from '../../testing/fixtures.ts'
import { type GrpcHealthFixture, startGrpcHealthServer } from '../../testing/grpc-server.ts'
import { grpcChecker } from './check.ts'

describe('grpcChecker', () => {
  let plain: GrpcHealthFixture
  let secure: GrpcHealthFixture
  let certificate: SelfSignedPems

  beforeAll(async () => {
    certificate = await selfSignedCertificate('grpc-fixture')
    plain = await startGrpcHealthServer()
    secure = await startGrpcHealthServer(certificate)
  })
  afterAll(async () => {
    await plain.close()
    await secure.close()
  })

  const check = (port: number, options: Record<string, unknown> = {}, context = testContext()) =>
    grpcChecker.check({ kind: 'grpc', host: '127.0.0.1', port, ...options }, context)

  it('is up when the whole server answers SERVING, with its connect and first-byte times', async () => {
    const outcome = await check(plain.port)
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThanOrEqual(0)
    expect(outcome.phases?.firstByteMs).toBeGreaterThan(0)
    expect(outcome.errorKind).toBeUndefined()
  })

  it('asks about the named service and is down with not_serving when it answers NOT_SERVING', async () => {
    plain.setStatus('shop.Orders', 'SERVING')
    expect(await check(plain.port, { service: 'shop.Orders' })).toMatchObject({ status: 'up' })
    plain.setStatus('shop.Orders', 'NOT_SERVING')
    expect(await check(plain.port, { service: 'shop.Orders' })).toMatchObject({
      status: 'down',
      errorKind: 'not_serving',
      error: 'the health service answered NOT_SERVING for service "shop.Orders"',
    })
  })

  it('is down with not_serving for a service the server does not know', async () => {
    expect(await check(plain.port, { service: 'shop.Missing' })).toMatchObject({
      status: 'down',
      errorKind: 'not_serving',
      error: 'the server does not know service "shop.Missing"',
    })
  })

  it('sends the metadata and the bearer token, and never reports the token', async () => {
    const bearerToken = 'grpc-secret-token-93f1'
    plain.received.length = 0
    const outcome = await check(plain.port, { metadata: { 'X-Tenant': 'acme' }, secrets: { bearerToken } })
    expect(outcome.status).toBe('up')
    expect(plain.received[0]).toMatchObject({ 'x-tenant': 'acme', authorization: `Bearer ${bearerToken}` })
    const refused = await check(await closedPort(), { secrets: { bearerToken } })
    expect(JSON.stringify([outcome, refused])).not.toContain(bearerToken)
  })

  it('reports an untrusted certificate as tls_invalid, and is up with it when told to ignore it', async () => {
    const strict = await check(secure.port, { tls: true })
    expect(strict).toMatchObject({
      status: 'down',
      errorKind: 'tls_invalid',
      error: 'certificate not valid: DEPTH_ZERO_SELF_SIGNED_CERT',
      certificate: { valid: false, subject: 'CN=grpc-fixture' },
    })
    const lenient = await check(secure.port, { tls: true, ignoreTlsErrors: true })
    expect(lenient).toMatchObject({ status: 'up', certificate: { valid: false, subject: 'CN=grpc-fixture' } })
    expect(lenient.phases?.tlsMs).toBeGreaterThan(0)
  })

  it('is down with protocol_error against a server that does not speak gRPC', async () => {
    const http1 = createHttpServer((_request, response) => response.end('not grpc'))
    const port = await listenLocal(http1)
    try {
      const outcome = await check(port)
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'protocol_error' })
    } finally {
      await closeServer(http1)
    }
  })

  it('is down with connect_refused when nothing listens', async () => {
    expect(await check(await closedPort())).toMatchObject({
      status: 'down',
      errorKind: 'connect_refused',
      error: expect.stringMatching(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
    })
  })

  it('ends within the timeout with timeout against a server that never answers', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await check(tarpit.port, {}, testContext(300))
      expect(performance.now() - started).toBeLessThan(800)
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
    } finally {
      await tarpit.close()
    }
  })

  it('refuses a loopback target unless private targets are allowed', async () => {
    const callsBefore = plain.received.length
    const outcome = await check(plain.port, {}, testContext(2000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
    expect(plain.received.length).toBe(callsBefore)
  })
})
