import { createServer, type Server } from 'node:http'
import { type HttpTarget, probeCredentialsKey, sealTargetAuth } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from './run-check.ts'
import { closeServer, listenLocal } from './testing/fixtures.ts'
import { httpMonitor } from './testing/probe-env.ts'

describe('runCheck with credentials', () => {
  let server: Server
  let base: string
  const seen: Array<{ authorization?: string; accept?: string }> = []
  const key = probeCredentialsKey('probe-credentials-key-probe-credentials-key')

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ authorization: request.headers.authorization, accept: request.headers.accept })
      response.statusCode = request.headers.authorization === 'Bearer t0ken' ? 200 : 401
      response.setHeader('content-type', 'application/json')
      response.end('{"ok":true}')
    })
    base = `http://127.0.0.1:${await listenLocal(server)}`
  })
  afterAll(() => closeServer(server))

  const sealed = (): HttpTarget =>
    sealTargetAuth({ kind: 'http', url: `${base}/`, method: 'GET', auth: { type: 'bearer', token: 't0ken' } }, key)

  it('opens credentials sealed for probes and sends them, with JSON Accept for API checks', async () => {
    const target = { ...sealed(), expectJson: true }
    expect(JSON.stringify(target)).not.toContain('t0ken')
    const result = await runCheck(httpMonitor(`${base}/`, { target }), 'fra', true, { credentialsKey: key })
    expect(result).toMatchObject({ status: 'up', statusCode: 200 })
    expect(seen.at(-1)).toEqual({ authorization: 'Bearer t0ken', accept: 'application/json' })
  })

  it('reports credentials_unavailable without the key or with another one, and sends nothing', async () => {
    const before = seen.length
    const missing = await runCheck(httpMonitor(`${base}/`, { target: sealed() }), 'fra', true)
    expect(missing).toMatchObject({ status: 'down', errorKind: 'credentials_unavailable' })
    expect(missing.error).toMatch(/GUARD_PROBE_CREDENTIALS_KEY/)
    const other = probeCredentialsKey('another-key-another-key-another-key-another')
    const wrong = await runCheck(httpMonitor(`${base}/`, { target: sealed() }), 'fra', true, { credentialsKey: other })
    expect(wrong).toMatchObject({ status: 'down', errorKind: 'credentials_unavailable' })
    expect(seen.length).toBe(before)
  })
})
