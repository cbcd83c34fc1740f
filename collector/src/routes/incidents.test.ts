import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { listIncidentComments } from '../services/incidents/list-comments.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  eventsSettled,
  startReactionsForTest,
  userCaller,
} from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('incidents API', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  const alice = userCaller('alice', [ORG])
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: 'Bearer user:alice' },
      ...(payload ? { payload } : {}),
    })
    return { status: response.statusCode, body: response.json() }
  }

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx, { authenticate: authenticateWithUsers(harness.ctx, { alice }) })
    reactions = await startReactionsForTest(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
  })

  it('opens a manual incident with the spec fields, its domains checked to be the organization’s', async () => {
    const domain = (await call('POST', '/api/domains', { url: 'https://shop.example' })).body.data.id
    const created = await call('POST', '/api/incidents', {
      title: 'Checkout errors',
      description: 'Payments fail for some users',
      severity: 'high',
      impact: 'major',
      affectedDomains: [domain],
      affectedServices: [],
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({
      title: 'Checkout errors',
      status: 'open',
      severity: 'high',
      impact: 'major',
      cause: 'manual',
      affectedDomains: [domain],
      affectedServices: [],
      acknowledgedAt: null,
      resolvedAt: null,
      monitorId: null,
    })
    expect(Date.parse(created.body.data.detectedAt)).toBeGreaterThan(Date.now() - 60_000)
    const refused = await call('POST', '/api/incidents', { title: 'x', affectedServices: ['nope'] })
    expect(refused.status).toBe(400)
  })

  it('records who acknowledged and when, and lets updates drive the status to resolved', async () => {
    const { id } = (await call('POST', '/api/incidents', { title: 'Slow API' })).body.data
    const acknowledged = await call('PUT', `/api/incidents/${id}`, { status: 'acknowledged', severity: 'critical' })
    expect(acknowledged.body.data).toMatchObject({
      status: 'acknowledged',
      severity: 'critical',
      acknowledgedBy: 'user:alice',
    })
    const at = acknowledged.body.data.acknowledgedAt
    await call('PUT', `/api/incidents/${id}`, { status: 'investigating' })
    expect((await call('GET', `/api/incidents/${id}`)).body.data.acknowledgedAt).toBe(at)
    const update = await call('POST', `/api/incidents/${id}/updates`, { message: 'Rolled back', status: 'resolved' })
    expect(update.status).toBe(201)
    const detail = (await call('GET', `/api/incidents/${id}`)).body.data
    expect(detail).toMatchObject({ status: 'resolved', resolvedBy: 'user:alice' })
    expect(detail.updates.map((u: { status: string }) => u.status)).toEqual([
      'open',
      'acknowledged',
      'investigating',
      'resolved',
    ])
    expect((await call('GET', `/api/incidents/${id}/updates`)).body.data).toEqual(detail.updates)
    await eventsSettled(harness.ctx)
    const { rows } = await harness.ctx.sql.query<{ type: string }>(
      'SELECT type FROM monitoring.activity WHERE subject_id = $1 ORDER BY occurred_at, type',
      [id],
    )
    expect(rows.map((row) => row.type)).toEqual([
      'incident.opened',
      'incident.updated',
      'incident.updated',
      'incident.resolved',
    ])
  })

  it('filters by status and severity and paginates newest first', async () => {
    for (const severity of ['low', 'low', 'medium'])
      await call('POST', '/api/incidents', { title: `t-${severity}`, severity })
    const low = await call('GET', '/api/incidents?severity=low&status=open&limit=1&page=2')
    expect(low.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 })
    expect(low.body.data).toHaveLength(1)
    expect(low.body.data[0].severity).toBe('low')
    const all = (await call('GET', '/api/incidents?limit=100')).body.data as Array<{ detectedAt: string }>
    expect(all.map((i) => i.detectedAt)).toEqual(
      all
        .map((i) => i.detectedAt)
        .sort()
        .reverse(),
    )
  })

  it('keeps internal comments inside the organization', async () => {
    const { id } = (await call('POST', '/api/incidents', { title: 'Comments' })).body.data
    await call('POST', `/api/incidents/${id}/comments`, { content: 'Customer-facing note' })
    await call('POST', `/api/incidents/${id}/comments`, { content: 'DB password rotated', isInternal: true })
    const members = (await call('GET', `/api/incidents/${id}/comments`)).body.data
    expect(members.map((c: { isInternal: boolean }) => c.isInternal)).toEqual([false, true])
    const published = await listIncidentComments(harness.ctx, alice, id, { publicOnly: true })
    expect(published.map((c) => c.content)).toEqual(['Customer-facing note'])
    // Comments raise no event, so nothing about them reaches a channel.
    await eventsSettled(harness.ctx)
    const { rows } = await harness.ctx.sql.query(
      `SELECT 1 FROM monitoring.event_outbox WHERE payload LIKE '%DB password%'
       UNION ALL SELECT 1 FROM monitoring.notifications WHERE message LIKE '%DB password%'`,
    )
    expect(rows).toEqual([])
  })
})
