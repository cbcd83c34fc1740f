import { createServer, type Server } from 'node:tls'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, closeServer, listenLocal, testContext } from '../../testing/fixtures.ts'
import { certificateVerdict, tlsChecker } from './check.ts'

async function tlsServer(notAfter: Date): Promise<Server> {
  const pems = await generate([{ name: 'commonName', value: 'tls-fixture' }], {
    keyType: 'ec',
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: notAfter,
    algorithm: 'sha256',
  })
  return createServer({ key: pems.private, cert: pems.cert }, (socket) => socket.end())
}

describe('tlsChecker', () => {
  const farExpiry = new Date(Math.floor(Date.now() / 1000 + 400 * 86_400) * 1000)
  const nearExpiry = new Date(Math.floor(Date.now() / 1000 + 5 * 86_400) * 1000)
  let far: Server
  let near: Server
  let farPort: number
  let nearPort: number

  beforeAll(async () => {
    far = await tlsServer(farExpiry)
    near = await tlsServer(nearExpiry)
    farPort = await listenLocal(far)
    nearPort = await listenLocal(near)
  })
  afterAll(async () => {
    await closeServer(far)
    await closeServer(near)
  })

  it('reports down for a self-signed certificate with its expiry, subject and issuer', async () => {
    const outcome = await tlsChecker.check({ kind: 'tls', host: '127.0.0.1', port: farPort }, testContext())
    expect(outcome).toMatchObject({
      status: 'down',
      error: 'certificate not valid: DEPTH_ZERO_SELF_SIGNED_CERT',
      certificate: {
        valid: false,
        expiresAt: farExpiry.toISOString(),
        subject: 'CN=tls-fixture',
        issuer: 'CN=tls-fixture',
      },
    })
    expect(outcome.phases?.tlsMs).toBeGreaterThan(0)
  })

  it('reads the expiry of a certificate close to expiring', async () => {
    const outcome = await tlsChecker.check({ kind: 'tls', host: '127.0.0.1', port: nearPort }, testContext())
    expect(outcome.certificate?.expiresAt).toBe(nearExpiry.toISOString())
  })

  it('marks a valid certificate degraded within the warning days and up outside them', () => {
    const certificate = { valid: true, expiresAt: nearExpiry.toISOString(), issuer: 'CN=CA', subject: 'CN=x' }
    expect(certificateVerdict(certificate, undefined, 14)).toEqual({
      status: 'degraded',
      error: 'certificate expires in 4 days',
      errorKind: 'tls_expiring',
    })
    expect(certificateVerdict(certificate, undefined, 3)).toEqual({ status: 'up' })
    expect(certificateVerdict(undefined, undefined, 3)).toMatchObject({ status: 'down' })
  })

  it('reports down with the reason when nothing listens', async () => {
    const outcome = await tlsChecker.check({ kind: 'tls', host: '127.0.0.1', port: await closedPort() }, testContext())
    expect(outcome.status).toBe('down')
    expect(outcome.error).toMatch(/ECONNREFUSED/)
  })
})
