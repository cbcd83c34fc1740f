import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, closeServer, listenLocal, testContext } from '../../testing/fixtures.ts'
import { tcpChecker } from './check.ts'

describe('tcpChecker', () => {
  let server: Server
  let port: number

  beforeAll(async () => {
    server = createServer((socket) => socket.end())
    port = await listenLocal(server)
  })
  afterAll(() => closeServer(server))

  it('reports up with the connect time when the port accepts', async () => {
    const outcome = await tcpChecker.check({ kind: 'tcp', host: '127.0.0.1', port }, testContext())
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1', phases: { dnsMs: 0 } })
    expect(outcome.phases?.connectMs).toBeGreaterThanOrEqual(0)
  })

  it('reports down with ECONNREFUSED for a closed port', async () => {
    const outcome = await tcpChecker.check({ kind: 'tcp', host: '127.0.0.1', port: await closedPort() }, testContext())
    expect(outcome.status).toBe('down')
    expect(outcome.error).toMatch(/ECONNREFUSED/)
  })

  it('refuses a loopback target without the allow flag', async () => {
    expect(await tcpChecker.check({ kind: 'tcp', host: '127.0.0.1', port }, testContext(1000, false))).toMatchObject({
      status: 'down',
      error: expect.stringMatching(/^refused: 127\.0\.0\.1, a loopback address/),
    })
  })
})
