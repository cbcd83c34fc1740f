import { createLogger, type Stoppable } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { answerRequests } from '../probe/src/requests.ts'
import { FLOW_APP_PASSWORD, type FlowApp, startFlowApp } from '../probe/src/testing/flow-app.ts'

/** A multi-step check created over the API, run now by a real probe against a local app. */
describe('synthetic API checks run by a probe', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let probe: Stoppable[]
  let target: FlowApp

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    probe = await answerRequests(
      harness.ctx.bus,
      'fra',
      true,
      createLogger({ name: 'probe-test', level: 'silent', pretty: false }),
    )
    target = await startFlowApp()
  })
  afterAll(async () => {
    await Promise.all(probe.map((responder) => responder.stop()))
    await target.close()
    await app.close()
    await harness.close()
  })

  it('logs in with a sealed secret, creates, reads and deletes, and keeps the run with its steps', async () => {
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const auth = { Authorization: 'Bearer {{token}}' }
    const created = await app.inject({
      method: 'POST',
      url: '/api/synthetics',
      headers,
      payload: {
        name: 'Checkout API',
        checkInterval: 60,
        timeout: 10,
        secrets: { PASSWORD: FLOW_APP_PASSWORD },
        steps: [
          {
            name: 'login',
            method: 'POST',
            url: `${target.url}/login`,
            body: '{"user":"ada","password":"{{secrets.PASSWORD}}"}',
            extract: [{ name: 'token', from: 'json', path: '$.token' }],
          },
          {
            name: 'create',
            method: 'POST',
            url: `${target.url}/items`,
            headers: auth,
            body: '{"name":"e2e"}',
            expectedStatus: [201],
            extract: [{ name: 'id', from: 'json', path: '$.id' }],
          },
          {
            name: 'read',
            method: 'GET',
            url: `${target.url}/items/{{id}}`,
            headers: auth,
            jsonPath: { path: '$.name', equals: 'e2e' },
          },
          { name: 'broken', method: 'GET', url: `${target.url}/broken` },
          { name: 'delete', method: 'DELETE', url: `${target.url}/items/{{id}}`, headers: auth, alwaysRun: true },
        ],
      },
    })
    expect(created.statusCode).toBe(201)
    const { id } = created.json().data
    const run = await app.inject({
      method: 'POST',
      url: `/api/synthetics/${id}/run?location=fra`,
      headers,
    })
    expect(run.statusCode).toBe(200)
    const data = run.json().data
    expect(data).toMatchObject({ location: 'fra', status: 'down', errorKind: 'status_mismatch' })
    expect(data.error).toBe('step "broken": HTTP 500, expected 200-399')
    expect(data.steps.map((step: { name: string; outcome: string }) => `${step.name}:${step.outcome}`)).toEqual([
      'login:passed',
      'create:passed',
      'read:passed',
      'broken:failed',
      'delete:passed',
    ])
    expect(target.items.size).toBe(0)
    expect(run.body).not.toContain(FLOW_APP_PASSWORD)
    const runs = await app.inject({ method: 'GET', url: `/api/synthetics/${id}/runs`, headers })
    expect(runs.json().data.map((stored: { id: string }) => stored.id)).toEqual([data.id])
  })
})
