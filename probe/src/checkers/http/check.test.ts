import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpChecker } from './check.ts'

describe('httpChecker', () => {
  let server: Server
  let base: string

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/slow') {
        setTimeout(() => response.end('late'), 2000)
        return
      }
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/' })
        response.end()
        return
      }
      response.writeHead(request.url === '/broken' ? 503 : 200)
      response.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const check = (path: string, timeoutMs = 1000) =>
    httpChecker.check({ kind: 'http', url: `${base}${path}`, method: 'GET' }, { timeoutMs })

  it('reports up with the status code and response time of a 200', async () => {
    const outcome = await check('/')
    expect(outcome).toMatchObject({ status: 'up', statusCode: 200 })
    expect(outcome.responseTimeMs).toBeGreaterThanOrEqual(0)
  })

  it('follows redirects to the final answer', async () => {
    expect(await check('/redirect')).toMatchObject({ status: 'up', statusCode: 200 })
  })

  it('reports down with the status for a 5xx', async () => {
    expect(await check('/broken')).toMatchObject({ status: 'down', statusCode: 503, error: 'HTTP 503' })
  })

  it('reports down with a clear error within the timeout for a slow target', async () => {
    const outcome = await check('/slow', 200)
    expect(outcome).toMatchObject({ status: 'down', error: 'timed out after 200 ms' })
    expect(outcome.responseTimeMs).toBeLessThan(1500)
  })

  it('reports down with the reason for a refused connection', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const outcome = await httpChecker.check(
      { kind: 'http', url: `http://127.0.0.1:${port}/`, method: 'GET' },
      { timeoutMs: 1000 },
    )
    expect(outcome.status).toBe('down')
    expect(outcome.error).toMatch(/ECONNREFUSED/)
  })
})
