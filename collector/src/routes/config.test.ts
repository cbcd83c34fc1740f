import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorAppWithUsers, userCaller } from '../test-support.ts'

const users = { owner: userCaller('owner', [DEFAULT_ORGANIZATION.id]) }
const headers = { authorization: 'Bearer user:owner' }

describe('the monitoring-as-code routes', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  beforeAll(async () => {
    harness = await collectorAppWithUsers(users)
  })
  afterAll(() => harness.close())

  it('plans and applies a YAML body, and exports YAML', async () => {
    const yaml = 'version: 1\nheartbeats:\n  - id: backup\n    name: Backup\n    every: 3600\n'
    const yamlHeaders = { ...headers, 'content-type': 'application/yaml' }
    const plan = await harness.app.inject({
      method: 'POST',
      url: '/api/config/plan',
      headers: yamlHeaders,
      payload: yaml,
    })
    expect(plan.json().data.summary).toEqual({ create: 1, update: 0, delete: 0 })
    const apply = await harness.app.inject({
      method: 'POST',
      url: '/api/config/apply',
      headers: yamlHeaders,
      payload: yaml,
    })
    expect(apply.json().data.summary).toEqual({ create: 1, update: 0, delete: 0, failed: 0 })
    const managed = await harness.app.inject({ method: 'GET', url: '/api/config/managed', headers })
    expect(managed.json().data).toEqual([expect.objectContaining({ kind: 'heartbeat', key: 'backup' })])
    const exported = await harness.app.inject({
      method: 'GET',
      url: '/api/config/export',
      headers: { ...headers, accept: 'application/yaml' },
    })
    expect(exported.headers['content-type']).toContain('application/yaml')
    expect(exported.body).toContain('- id: backup')
  })

  it('answers 400 naming the line and column of a YAML body’s problem', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/config/plan',
      headers: { ...headers, 'content-type': 'application/yaml' },
      payload: 'version: 1\ndomains:\n  - id: Shop\n',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toContain('line 3, column 5 (domains[0].id)')
  })

  it('answers 400 naming the entry and field of a create body the document gets wrong', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/config/plan',
      headers,
      payload: { version: 1, domains: [{ id: 'shop', url: 'not a url' }] },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toContain('document.domains[0].url')
  })

  it('refuses a document that still holds environment references', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/config/plan',
      headers,
      payload: {
        version: 1,
        channels: [{ id: 'a', name: 'A', provider: 'slack', config: { webhookUrl: '$' + '{env:HOOK}' } }],
      },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toContain('HOOK')
  })

  it('serves the JSON Schema publicly, cacheable', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/schemas/guard.json' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('public, max-age=3600')
    expect(response.json()).toMatchObject({ title: 'guard.yaml', properties: { version: { const: 1 } } })
  })
})
