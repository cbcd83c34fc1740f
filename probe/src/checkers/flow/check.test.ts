import type { FlowStep, FlowTarget } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testContext } from '../../testing/fixtures.ts'
import { FLOW_APP_PASSWORD, type FlowApp, startFlowApp } from '../../testing/flow-app.ts'
import { flowChecker } from './check.ts'

let app: FlowApp
beforeAll(async () => {
  app = await startFlowApp()
})
afterAll(() => app.close())

const auth = { Authorization: 'Bearer {{token}}' }

/** login → token → create → read → delete, the delete as clean-up. */
function journey(read: Partial<FlowStep> = {}): FlowTarget {
  return {
    kind: 'flow',
    secrets: { PASSWORD: FLOW_APP_PASSWORD },
    steps: [
      {
        name: 'login',
        method: 'POST',
        url: `${app.url}/login`,
        headers: { 'content-type': 'application/json' },
        body: '{"user":"ada","password":"{{secrets.PASSWORD}}"}',
        expectedStatus: [200],
        extract: [{ name: 'token', from: 'json', path: '$.token' }],
      },
      {
        name: 'create',
        method: 'POST',
        url: `${app.url}/items`,
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"name":"probe"}',
        expectedStatus: [201],
        extract: [
          { name: 'id', from: 'json', path: '$.id' },
          { name: 'where', from: 'header', header: 'Location' },
        ],
      },
      {
        name: 'read',
        method: 'GET',
        url: `${app.url}{{where}}`,
        headers: auth,
        conditions: ['[STATUS] == 200', '[BODY].name == probe'],
        ...read,
      },
      {
        name: 'delete',
        method: 'DELETE',
        url: `${app.url}/items/{{id}}`,
        headers: auth,
        expectedStatus: [204],
        alwaysRun: true,
      },
    ],
  }
}

describe('multi-step API checks', () => {
  it('runs login → create → read → delete with variables and the session cookie carried across steps', async () => {
    const outcome = await flowChecker.check(journey(), testContext())
    expect(outcome.status).toBe('up')
    expect(outcome.details?.steps?.map((step) => [step.name, step.outcome, step.statusCode])).toEqual([
      ['login', 'passed', 200],
      ['create', 'passed', 201],
      ['read', 'passed', 200],
      ['delete', 'passed', 204],
    ])
    const login = outcome.details!.steps![0]!
    expect(login.connectMs).toBeGreaterThanOrEqual(0)
    expect(login.firstByteMs).toBeGreaterThanOrEqual(0)
    expect(login.totalMs).toBeGreaterThan(0)
    expect(app.items.size).toBe(0)
  })

  it('reports a failing middle step by name, skips the next ones and still runs the clean-up', async () => {
    const before = app.requests.length
    const outcome = await flowChecker.check(journey({ conditions: ['[BODY].name == other'] }), testContext())
    expect(outcome.status).toBe('down')
    expect(outcome.errorKind).toBe('condition_failed')
    expect(outcome.error).toMatch(/^step "read": /)
    expect(outcome.details?.steps?.map((step) => step.outcome)).toEqual(['passed', 'passed', 'failed', 'passed'])
    expect(app.requests.slice(before).at(-1)).toMatch(/^DELETE \/items\//)
    expect(app.items.size).toBe(0)
  })

  it('skips steps after a failure unless they always run', async () => {
    const target = journey()
    target.steps.splice(1, 0, { name: 'broken', method: 'GET', url: `${app.url}/broken` })
    const outcome = await flowChecker.check(target, testContext())
    expect(outcome.error).toBe('step "broken": HTTP 500, expected 200-399')
    expect(outcome.errorKind).toBe('status_mismatch')
    expect(outcome.statusCode).toBe(500)
    // The clean-up ran and failed on its own: {{id}} was never extracted.
    expect(outcome.details?.steps?.map((step) => step.outcome)).toEqual([
      'passed',
      'failed',
      'skipped',
      'skipped',
      'failed',
    ])
    expect(outcome.details?.steps?.at(-1)?.error).toBe('{{id}} is not set')
  })

  it('fails the step whose extraction finds nothing, as extraction_failed', async () => {
    const target = journey()
    target.steps[0]!.extract = [{ name: 'token', from: 'json', path: '$.missing' }]
    const outcome = await flowChecker.check(target, testContext())
    expect(outcome.errorKind).toBe('extraction_failed')
    expect(outcome.error).toBe('step "login": extracting token from the json at $.missing found nothing')
  })

  it('never reports a secret, even when an answer or an error would quote it', async () => {
    const target = journey()
    target.steps[0]!.conditions = [`[BODY].token == ${FLOW_APP_PASSWORD}`]
    target.steps.push({ name: 'leak', method: 'GET', url: 'http://127.0.0.1:1/{{secrets.PASSWORD}}', alwaysRun: true })
    const outcome = await flowChecker.check(target, testContext())
    expect(outcome.status).toBe('down')
    expect(JSON.stringify(outcome)).not.toContain(FLOW_APP_PASSWORD)
    expect(JSON.stringify(outcome)).not.toContain('horse')
  })

  it('refuses a private address without the allow setting, on every step', async () => {
    const outcome = await flowChecker.check(journey(), testContext(2000, false))
    expect(outcome.errorKind).toBe('refused_private_target')
    expect(outcome.error).toMatch(/^step "login": /)
  })

  it('bounds a step by its own timeout', async () => {
    const { startTarpit } = await import('../../testing/fixtures.ts')
    const tarpit = await startTarpit()
    try {
      const outcome = await flowChecker.check(
        {
          kind: 'flow',
          steps: [{ name: 'hang', method: 'GET', url: `http://127.0.0.1:${tarpit.port}/`, timeoutMs: 150 }],
        },
        testContext(2000),
      )
      expect(outcome.errorKind).toBe('timeout')
      expect(outcome.error).toBe('step "hang": timed out after 150 ms')
      expect(outcome.responseTimeMs).toBeLessThan(1000)
    } finally {
      await tarpit.close()
    }
  })
})
