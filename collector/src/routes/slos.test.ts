import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorForTest } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('SLO routes', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let domain: string
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    domain = (
      await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers: headers(),
        payload: { url: 'https://shop.slo-routes.example', name: 'Shop <main>', tags: ['env:prod'] },
      })
    ).json().data.id
    await storeResults(
      harness.ctx.timeseries,
      Array.from({ length: 10 }, (_, index) => resultFor(domain, ORG, 'fra', 600 - index * 60, 'up', 30)),
    )
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('creates an SLO with the default burn alerts, reads its budget, changes and deletes it', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/slos',
      headers: headers(),
      payload: { name: 'Shop availability', subject: { kind: 'monitor', id: domain }, objective: 99.9 },
    })
    expect(created.statusCode).toBe(201)
    const slo = created.json().data
    expect(slo).toMatchObject({
      name: 'Shop availability',
      subject: { kind: 'monitor', id: domain, name: 'Shop <main>' },
      window: { type: 'rolling', days: 30 },
      burnAlerts: [
        { budgetPercent: 2, longWindowMinutes: 60, shortWindowMinutes: 5 },
        { budgetPercent: 5, longWindowMinutes: 360, shortWindowMinutes: 30 },
      ],
      burning: null,
    })
    const detail = await app.inject({ method: 'GET', url: `/api/slos/${slo.id}`, headers: headers() })
    expect(detail.statusCode).toBe(200)
    expect(detail.json().data.status).toMatchObject({ badMinutes: 0, remainingPercent: 100, sli: 100 })
    expect(detail.json().data.status.burnDown.length).toBeGreaterThanOrEqual(30)

    const list = await app.inject({ method: 'GET', url: '/api/slos', headers: headers() })
    expect(list.json().data.map((item: { id: string }) => item.id)).toContain(slo.id)
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/slos/${slo.id}`,
      headers: headers(),
      payload: { objective: 99.5, window: { type: 'calendar-month' } },
    })
    expect(updated.json().data).toMatchObject({ objective: 99.5, window: { type: 'calendar-month' } })
    const duplicate = await app.inject({
      method: 'POST',
      url: '/api/slos',
      headers: headers(),
      payload: { name: 'Shop availability', subject: { kind: 'monitor', id: domain }, objective: 99 },
    })
    expect(duplicate.statusCode).toBe(409)
    expect((await app.inject({ method: 'DELETE', url: `/api/slos/${slo.id}`, headers: headers() })).statusCode).toBe(
      200,
    )
    expect((await app.inject({ method: 'GET', url: `/api/slos/${slo.id}`, headers: headers() })).statusCode).toBe(404)
  })

  it('refuses a short burn window not below its long one, naming the field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/slos',
      headers: headers(),
      payload: {
        name: 'bad alerts',
        subject: { kind: 'monitor', id: domain },
        objective: 99,
        burnAlerts: [{ budgetPercent: 2, longWindowMinutes: 60, shortWindowMinutes: 60 }],
      },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toContain('shortWindowMinutes')
  })

  it('lists SLOs with their SLI, budget left and burn rates through MCP, only for a signed-in caller', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/slos',
      headers: headers(),
      payload: { name: 'Shop via MCP', subject: { kind: 'monitor', id: domain }, objective: 99 },
    })
    const id = created.json().data.id
    const listSlos = async (authorization?: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/mcp',
          headers: {
            ...(authorization ? { authorization } : {}),
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
          },
          payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_slos', arguments: {} } },
        })
      ).json().result
    const answer = await listSlos(headers().authorization)
    expect(answer.isError).toBeFalsy()
    const slo = answer.structuredContent.slos.find((item: { id: string }) => item.id === id)
    expect(slo).toMatchObject({
      name: 'Shop via MCP',
      objective: 99,
      sli: 100,
      remainingPercent: 100,
      burnRates: { '1h': 0 },
      burning: null,
    })
    expect(slo).not.toHaveProperty('burnDown')
    expect(answer.content[0].text).toContain('- Shop via MCP: objective 99 %, SLI 100 %, 100 % of the budget left')
    const anonymous = await listSlos()
    expect(anonymous.isError).toBe(true)
    expect(anonymous.content[0].text).toMatch(/^UNAUTHORIZED/)
    await app.inject({ method: 'DELETE', url: `/api/slos/${id}`, headers: headers() })
  })

  it('reports a month as JSON, CSV and a printable page, narrowed by tag', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/slos',
      headers: headers(),
      payload: { name: 'Shop monthly', subject: { kind: 'monitor', id: domain }, objective: 99 },
    })
    const month = new Date().toISOString().slice(0, 7)
    const json = await app.inject({
      method: 'GET',
      url: `/api/reports/slos?month=${month}&tag=env:prod`,
      headers: headers(),
    })
    expect(json.statusCode).toBe(200)
    expect(json.json().data).toMatchObject({ month, totals: { slos: 1, met: 1, missed: 0 } })
    expect(json.json().data.slos[0]).toMatchObject({ name: 'Shop monthly', badMinutes: 0, met: true })
    const none = await app.inject({ method: 'GET', url: '/api/reports/slos?tag=env:staging', headers: headers() })
    expect(none.json().data.slos).toEqual([])

    const csv = await app.inject({
      method: 'GET',
      url: `/api/reports/slos?month=${month}&format=csv`,
      headers: headers(),
    })
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.body.split('\n')[0]).toBe(
      'id,name,subjectKind,subjectName,objective,sli,met,goodMinutes,badMinutes,budgetMinutes,remainingMinutes,remainingPercent',
    )
    const html = await app.inject({
      method: 'GET',
      url: `/api/reports/slos?month=${month}&format=html`,
      headers: headers(),
    })
    expect(html.headers['content-type']).toMatch(/^text\/html/)
    expect(html.body).toContain('@media print')
    expect(html.body).toContain('Shop &lt;main&gt;')
    expect(html.body).not.toContain('<script')

    // Read-cached: a repeated CSV keeps its file name, and the same URL asked as CSV by Accept is not the JSON.
    const again = await app.inject({
      method: 'GET',
      url: `/api/reports/slos?month=${month}&format=csv`,
      headers: headers(),
    })
    expect(again.headers['x-cache']).toBe('hit')
    expect(again.headers['content-disposition']).toBe(csv.headers['content-disposition'])
    expect(again.body).toBe(csv.body)
    const byAccept = await app.inject({
      method: 'GET',
      url: `/api/reports/slos?month=${month}&tag=env:prod`,
      headers: { ...headers(), accept: 'text/csv' },
    })
    expect(byAccept.headers['content-type']).toMatch(/^text\/csv/)

    const badMonth = await app.inject({ method: 'GET', url: '/api/reports/slos?month=2024-13', headers: headers() })
    expect(badMonth.statusCode).toBe(400)
  })
})
