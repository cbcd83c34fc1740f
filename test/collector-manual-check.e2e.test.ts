import type { AddressInfo } from 'node:net'
import { createServer, type Server } from 'node:net'
import { createLogger, type Stoppable } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { answerRequests } from '../probe/src/requests.ts'

/** The collector's manual check against the probe's real request handler, over one bus. */
describe('manual service checks run by a probe', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let probe: Stoppable[]
  let listener: Server
  let port: number

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    const log = createLogger({ name: 'probe-test', level: 'silent', pretty: false })
    probe = await answerRequests(harness.ctx.bus, 'fra', true, log)
    listener = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    port = (listener.address() as AddressInfo).port
  })
  afterAll(async () => {
    await Promise.all(probe.map((responder) => responder.stop()))
    listener.close()
    await app.close()
    await harness.close()
  })

  const checkNow = async (protocolConfig: { host: string; port: number }) => {
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const created = await app.inject({
      method: 'POST',
      url: '/api/services',
      headers,
      payload: { name: 'local tcp', protocol: 'tcp', protocolConfig, timeout: 2, checkInterval: 10 },
    })
    return app.inject({ method: 'POST', url: `/api/services/${created.json().data.id}/check`, headers })
  }

  it('reports up for a listening port and down with the reason for a closed one', async () => {
    const open = await checkNow({ host: '127.0.0.1', port })
    expect(open.statusCode).toBe(200)
    expect(open.json().data).toMatchObject({ status: 'up', responseTime: expect.any(Number) })

    listener.close()
    const closed = await checkNow({ host: '127.0.0.1', port })
    expect(closed.statusCode).toBe(200)
    expect(closed.json().data.status).toBe('down')
    expect(closed.json().data.message).toMatch(/ECONNREFUSED|refused/i)
  })
})
