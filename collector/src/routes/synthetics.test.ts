import {
  decodeJson,
  decodeMonitorConfig,
  encodeJson,
  manualCheckRequestV1,
  manualCheckSubject,
  PROBE_QUEUE,
} from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeSyntheticRuns } from '../services/synthetics/store-runs.ts'
import { collectorForTest } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

const SECRET = 'hunter2-very-secret'
const steps = [
  {
    name: 'login',
    method: 'POST',
    url: 'https://api.example.org/login',
    body: '{"password":"{{secrets.PASSWORD}}"}',
    extract: [{ name: 'token', from: 'json', path: '$.token' }],
  },
  { name: 'read', method: 'GET', url: 'https://api.example.org/me', headers: { Authorization: 'Bearer {{token}}' } },
  { name: 'logout', method: 'POST', url: 'https://api.example.org/logout', alwaysRun: true },
]

describe('synthetics API', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${harness.apiKey}` }, ...(payload ? { payload } : {}) })

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('creates a multi-step check, schedules its flow with the secrets and never returns them', async () => {
    const created = await call('POST', '/api/synthetics', {
      name: 'Login journey',
      steps,
      secrets: { PASSWORD: SECRET },
      tags: ['team:web'],
      locations: ['*'],
    })
    expect(created.statusCode).toBe(201)
    const synthetic = created.json().data
    expect(synthetic).toMatchObject({ name: 'Login journey', type: 'api', secretsSet: true, checkInterval: 300 })
    expect(synthetic.steps.map((step: { name: string }) => step.name)).toEqual(['login', 'read', 'logout'])
    expect(created.body).not.toContain(SECRET)
    const schedule = decodeMonitorConfig((await harness.ctx.monitors.get(synthetic.id))!.value!)
    expect(schedule.target.kind).toBe('flow')
    expect(schedule.target.kind === 'flow' && schedule.target.steps).toHaveLength(3)

    const listed = await call('GET', '/api/synthetics?tag=team:web')
    expect(listed.json().data.map((item: { id: string }) => item.id)).toEqual([synthetic.id])
    expect((await call('GET', '/api/synthetics?tag=team:other')).json().data).toEqual([])
    const usage = (await call('GET', '/api/usage')).json().data.usage
    expect(usage).toMatchObject({ synthetics: 1, monitors: 1 })
    const found = await call('GET', '/api/monitors?kind=synthetic')
    expect(found.statusCode).toBe(200)
    expect(found.json().data).toEqual([expect.objectContaining({ kind: 'synthetic', id: synthetic.id })])
    await call('DELETE', `/api/synthetics/${synthetic.id}`)
  })

  it('refuses bad steps and an unknown secret reference with 400 naming the field', async () => {
    const badUrl = await call('POST', '/api/synthetics', {
      name: 'x',
      steps: [{ name: 'a', method: 'GET', url: 'ftp://x' }],
    })
    expect(badUrl.statusCode).toBe(400)
    expect(badUrl.json().message).toMatch(/steps\.0\.url/)
    const missing = await call('POST', '/api/synthetics', { name: 'x', steps })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().message).toMatch(/secrets\.PASSWORD/)
    const repeated = await call('POST', '/api/synthetics', {
      name: 'x',
      steps: [steps[1], steps[1]],
    })
    expect(repeated.statusCode).toBe(400)
    expect(repeated.json().message).toMatch(/steps\.1\.name/)
    const extraction = await call('POST', '/api/synthetics', {
      name: 'x',
      steps: [{ ...steps[1], extract: [{ name: 'id', from: 'json', path: 'id' }] }],
    })
    expect(extraction.statusCode).toBe(400)
    expect(extraction.json().message).toMatch(/steps\.0\.extract\.0\.path/)
  })

  it('runs now from a chosen location, keeps the run with its steps, and updates merge secrets', async () => {
    const created = await call('POST', '/api/synthetics', { name: 'Run me', steps, secrets: { PASSWORD: SECRET } })
    const { id } = created.json().data
    const seen: string[] = []
    const probe = await harness.ctx.bus.respond(manualCheckSubject('fra'), PROBE_QUEUE, async (data) => {
      const { monitor } = decodeJson(manualCheckRequestV1, data)
      seen.push(JSON.stringify(monitor.target))
      const result = resultFor(monitor.id, monitor.organizationId, 'fra', 0, 'down', 40, {
        kind: 'flow',
        error: 'step "read": HTTP 503, expected 200-399',
        errorKind: 'status_mismatch',
        details: {
          steps: [
            { name: 'login', outcome: 'passed', statusCode: 200, totalMs: 10 },
            { name: 'read', outcome: 'failed', statusCode: 503, error: 'HTTP 503, expected 200-399', totalMs: 20 },
            { name: 'logout', outcome: 'passed', statusCode: 204, totalMs: 10 },
          ],
        },
      })
      return encodeJson({ v: 1, result })
    })
    try {
      const run = await call('POST', `/api/synthetics/${id}/run?location=fra`)
      expect(run.statusCode).toBe(200)
      expect(run.json().data).toMatchObject({ location: 'fra', status: 'down', errorKind: 'status_mismatch' })
      expect(run.json().data.error).toMatch(/^step "read"/)
      // The probe received the secret (no probe key in this test), the API caller never does.
      expect(seen[0]).toContain(SECRET)
      expect(run.body).not.toContain(SECRET)
    } finally {
      await probe.stop()
    }
    const runs = await call('GET', `/api/synthetics/${id}/runs`)
    expect(runs.statusCode).toBe(200)
    expect(runs.json().data[0].steps.map((step: { outcome: string }) => step.outcome)).toEqual([
      'passed',
      'failed',
      'passed',
    ])

    const updated = await call('PUT', `/api/synthetics/${id}`, { secrets: { OTHER: 'x' }, checkInterval: 600 })
    expect(updated.statusCode).toBe(200)
    expect(updated.json().data).toMatchObject({ checkInterval: 600, secretsSet: true })
    const dropped = await call('PUT', `/api/synthetics/${id}`, { secrets: { PASSWORD: null } })
    expect(dropped.statusCode).toBe(400)
    expect(dropped.json().message).toMatch(/secrets\.PASSWORD/)
    expect((await call('DELETE', `/api/synthetics/${id}`)).statusCode).toBe(200)
    expect((await call('GET', `/api/synthetics/${id}`)).statusCode).toBe(404)
  })

  it('a synthetic result is a result: state and stored runs from the ingest path, runs of a deleted check dropped', async () => {
    const { id, organizationId } = (
      await call('POST', '/api/synthetics', { name: 'Ingested', steps: [steps[1]] })
    ).json().data
    const result = resultFor(id, organizationId, 'fra', 0, 'up', 30, {
      kind: 'flow',
      details: { steps: [{ name: 'read', outcome: 'passed', statusCode: 200, totalMs: 30 }] },
    })
    await applyResultsToState(harness.ctx.sql, [result])
    await storeSyntheticRuns(harness.ctx.sql, [result])
    // Two failed runs (the default threshold) make it down and stage a monitor.down event of its kind.
    const failed = [1, 2].map((at) =>
      resultFor(id, organizationId, 'fra', -at, 'down', 30, { kind: 'flow', error: 'step "read": HTTP 500' }),
    )
    await applyResultsToState(harness.ctx.sql, failed)
    const state = await harness.ctx.sql.query<{ status: string }>(
      'SELECT status FROM monitoring.monitor_state WHERE monitor_id = $1',
      [id],
    )
    expect(state.rows[0]?.status).toBe('down')
    await storeSyntheticRuns(harness.ctx.sql, [result])
    expect((await call('GET', `/api/synthetics/${id}/runs`)).json().data).toHaveLength(1)
    await call('DELETE', `/api/synthetics/${id}`)
    await expect(storeSyntheticRuns(harness.ctx.sql, [{ ...result, id: 'late' }])).resolves.toBeUndefined()
  })
})
