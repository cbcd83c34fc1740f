import { DEFAULT_ORGANIZATION, encodeCheckResult, resultSubject, type Stoppable } from '@guard/shared'
import { sampleCheckResult } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import type { CollectorContext } from '../context.ts'
import { consumeResults, type IngestStats } from '../ingest/consume-results.ts'
import { createReadCache } from '../services/read-cache/cache.ts'
import { followReadInvalidations, invalidateIngestedReads, invalidateReads } from '../services/read-cache/invalidate.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../test-support.ts'

const waitUntil = async (condition: () => boolean | Promise<boolean>, what: string) => {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/**
 * Two replicas on one bus and one pair of stores, each with its own read cache: what one replica
 * writes or ingests must be visible on the other's next read, however recently that one cached it.
 */
describe('read cache across replicas', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let a: Awaited<ReturnType<typeof buildCollectorApp>>
  let b: Awaited<ReturnType<typeof buildCollectorApp>>
  let replicaB: CollectorContext
  const followers: Stoppable[] = []
  const auth = () => ({ authorization: `Bearer ${harness.apiKey}` })

  beforeAll(async () => {
    // A TTL far longer than the test: only invalidation can make an entry go.
    harness = await collectorForTest({ GUARD_READ_CACHE_TTL_MS: '300000' })
    replicaB = { ...harness.ctx, reads: createReadCache({ ttlMs: 300_000, maxEntries: 100 }) }
    followers.push(await followReadInvalidations(harness.ctx), await followReadInvalidations(replicaB))
    const users = { admin: userCaller('cache-admin', [DEFAULT_ORGANIZATION.id]) }
    a = await buildCollectorApp(harness.ctx, { authenticate: authenticateWithUsers(harness.ctx, users) })
    b = await buildCollectorApp(replicaB, { authenticate: authenticateWithUsers(replicaB, users) })
  })
  afterAll(async () => {
    for (const follower of followers) await follower.stop()
    await a.close()
    await b.close()
    await harness.close()
  })

  const get = (app: typeof a, url: string, headers = auth()) => app.inject({ method: 'GET', url, headers })

  it('serves a repeated read from memory and shows a write made through the other replica at once', async () => {
    const first = await get(b, '/api/domains?limit=200')
    expect(first.headers['x-cache']).toBe('miss')
    const again = await get(b, '/api/domains?limit=200')
    expect(again.headers['x-cache']).toBe('hit')
    expect(again.body).toBe(first.body)
    expect(again.headers['x-ratelimit-remaining']).toBeDefined()

    const created = await a.inject({
      method: 'POST',
      url: '/api/domains',
      headers: auth(),
      payload: { url: 'https://cache.example', checkInterval: 60 },
    })
    expect(created.statusCode).toBe(201)
    const id = created.json().data.id
    await waitUntil(async () => {
      const after = await get(b, '/api/domains?limit=200')
      return after.json().data.some((domain: { id: string }) => domain.id === id)
    }, 'the new domain on the other replica')
  })

  it('counts a redelivered result once in what both replicas show after the ingest invalidated them', async () => {
    const created = await a.inject({
      method: 'POST',
      url: '/api/domains',
      headers: auth(),
      payload: { url: 'https://ingest-cache.example', checkInterval: 60 },
    })
    const id = created.json().data.id
    const statsUrl = `/api/domains/${id}/stats?period=24h`
    expect((await get(b, statsUrl)).json().data.total_checks).toBe(0)
    // The creation's invalidation notice reaches B asynchronously; once it has, B keeps its entry.
    await waitUntil(async () => (await get(b, statsUrl)).headers['x-cache'] === 'hit', 'the stats cached on B')

    const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
    const consumer = await consumeResults(harness.ctx, stats)
    const result = sampleCheckResult(id, { responseTimeMs: 80 })
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: `${result.id}-again` })
    await waitUntil(() => stats.stored >= 2, 'both deliveries ingested')
    await consumer.stop()

    for (const app of [a, b]) {
      const response = await get(app, statsUrl)
      expect(response.json().data).toMatchObject({ total_checks: 1, average_response_time_ms: 80 })
      const detail = (await get(app, `/api/domains/${id}`)).json().data
      expect(detail).toMatchObject({ status: 'up', uptimePercentage: 100, responseTime: 80 })
    }
  })

  it("keeps other monitors' pages cached when one monitor's results arrive, and refreshes its pages and the lists", async () => {
    const create = async (url: string) =>
      (await a.inject({ method: 'POST', url: '/api/domains', headers: auth(), payload: { url } })).json().data.id
    const [busy, quiet] = [await create('https://busy.example'), await create('https://quiet.example')]
    const pages = [`/api/domains/${busy}`, `/api/domains/${quiet}`, '/api/domains?limit=200']
    for (const page of pages) {
      await waitUntil(async () => (await get(b, page)).headers['x-cache'] === 'hit', `${page} cached on B`)
    }

    const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
    const consumer = await consumeResults(harness.ctx, stats)
    const result = sampleCheckResult(busy, { responseTimeMs: 70 })
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
    await waitUntil(() => stats.stored >= 1, 'the result ingested')
    await consumer.stop()

    // The notice reaches B through the bus; once it has, both of the busy domain's reads are recomputed.
    await waitUntil(
      async () => (await get(b, pages[0]!)).json().data.uptimePercentage === 100,
      "the busy domain's page refreshed on B",
    )
    expect((await get(b, pages[0]!)).json().data).toMatchObject({ status: 'up', responseTime: 70 })
    const list = await get(b, pages[2]!)
    expect(list.json().data.find((domain: { id: string }) => domain.id === busy)).toMatchObject({ status: 'up' })
    // The same notice left the quiet domain's page alone.
    expect((await get(b, pages[1]!)).headers['x-cache']).toBe('hit')
  })

  it('serves the previous answer beside the one recomputation after ingest, never after a write', async () => {
    const url = '/api/domains?limit=5'
    const before = await get(b, url)
    await waitUntil(async () => (await get(b, url)).headers['x-cache'] === 'hit', 'the list cached on B')
    await invalidateIngestedReads({ ctx: replicaB, organizationIds: [DEFAULT_ORGANIZATION.id], monitorIds: [] })
    const afterIngest = await Promise.all(Array.from({ length: 5 }, () => get(b, url)))
    expect(afterIngest.map((response) => response.headers['x-cache']).sort()).toEqual([
      'miss',
      'stale',
      'stale',
      'stale',
      'stale',
    ])
    expect(afterIngest.every((response) => response.body === before.body)).toBe(true)

    await invalidateReads({ ctx: replicaB, organizationIds: [DEFAULT_ORGANIZATION.id] })
    const afterWrite = await Promise.all(Array.from({ length: 5 }, () => get(b, url)))
    expect(afterWrite.map((response) => response.headers['x-cache']).sort()).toEqual([
      'miss',
      'shared',
      'shared',
      'shared',
      'shared',
    ])
  })

  it('computes a miss once for concurrent requests and hands its answer to the others', async () => {
    const url = '/api/domains/stats'
    const responses = await Promise.all(Array.from({ length: 5 }, () => get(b, url)))
    const sources = responses.map((response) => response.headers['x-cache'])
    expect(sources.filter((source) => source === 'miss')).toHaveLength(1)
    expect(sources.filter((source) => source === 'shared')).toHaveLength(4)
    expect(new Set(responses.map((response) => response.body)).size).toBe(1)
  })

  it('refuses a revoked API key on the replica that had verified it, on its next request', async () => {
    const issued = await a.inject({
      method: 'POST',
      url: '/api-keys',
      headers: { authorization: 'Bearer user:admin' },
      payload: { name: 'short-lived', permissions: ['domains:read'] },
    })
    expect(issued.statusCode).toBe(201)
    const { id, key } = issued.json().data
    const headers = { authorization: `Bearer ${key}` }
    expect((await get(b, '/api/domains', headers)).statusCode).toBe(200)
    await waitUntil(async () => (await get(b, '/api/domains', headers)).headers['x-cache'] === 'hit', 'the list cached')

    expect(
      (await a.inject({ method: 'DELETE', url: `/api-keys/${id}`, headers: { authorization: 'Bearer user:admin' } }))
        .statusCode,
    ).toBe(200)
    await waitUntil(async () => (await get(b, '/api/domains', headers)).statusCode === 401, 'the key refused')
  })
})
