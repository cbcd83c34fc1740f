import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from './run-check.ts'
import { closedPort, closeServer, listenLocal } from './testing/fixtures.ts'
import { httpMonitor } from './testing/probe-env.ts'

const LAG_MS = 150

describe('response-time thresholds of the monitor', () => {
  let slow: Server
  let tcp: TcpServer
  let slowUrl: string
  let tcpPort: number

  beforeAll(async () => {
    slow = createServer((_request, response) => setTimeout(() => response.end('fine but slow'), LAG_MS))
    slowUrl = `http://127.0.0.1:${await listenLocal(slow)}/`
    tcp = createTcpServer((socket) => socket.end())
    tcpPort = await listenLocal(tcp)
  })
  afterAll(async () => {
    await closeServer(slow)
    await closeServer(tcp)
  })

  it('turn a slow up into degraded, then into down, as slow', async () => {
    const degraded = await runCheck(httpMonitor(slowUrl, { degradedAboveMs: 50 }), 'fra', true)
    expect(degraded).toMatchObject({ status: 'degraded', errorKind: 'slow', statusCode: 200 })
    expect(degraded.error).toMatch(/^responded in \d+(\.\d)? ms, above 50 ms$/)
    const down = await runCheck(httpMonitor(slowUrl, { degradedAboveMs: 50, downAboveMs: 100 }), 'fra', true)
    expect(down).toMatchObject({ status: 'down', errorKind: 'slow' })
    expect(down.error).toMatch(/, above 100 ms$/)
    expect(
      await runCheck(httpMonitor(slowUrl, { degradedAboveMs: 5000, downAboveMs: 6000 }), 'fra', true),
    ).toMatchObject({ status: 'up' })
  })

  it('send down a check the HTTP option already marked degraded, when it is slower than downAboveMs', async () => {
    const target = { kind: 'http' as const, url: slowUrl, method: 'GET' as const, degradedAboveMs: 50 }
    const result = await runCheck(httpMonitor(slowUrl, { downAboveMs: 100, target }), 'fra', true)
    expect(result).toMatchObject({ status: 'down', errorKind: 'slow' })
  })

  it('apply to other kinds of check, and leave a failed check its own reason', async () => {
    const tcpMonitor = (port: number) => ({
      ...httpMonitor(slowUrl, { degradedAboveMs: 1000, downAboveMs: 1500 }),
      target: { kind: 'tcp' as const, host: '127.0.0.1', port },
    })
    expect(await runCheck(tcpMonitor(tcpPort), 'fra', true)).toMatchObject({ kind: 'tcp', status: 'up' })
    const fastTcp = { ...tcpMonitor(tcpPort), degradedAboveMs: undefined, downAboveMs: 1 }
    const refused = await runCheck({ ...fastTcp, target: { ...fastTcp.target, port: await closedPort() } }, 'fra', true)
    expect(refused).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
  })

  it('leave the result without thresholds as the checker gave it', async () => {
    expect(await runCheck(httpMonitor(slowUrl), 'fra', true)).toMatchObject({ status: 'up' })
  })
})
