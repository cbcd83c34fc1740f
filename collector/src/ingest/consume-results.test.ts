import {
  DEFAULT_ORGANIZATION,
  type DeadLetter,
  deadLetterSubject,
  decodeDeadLetter,
  encodeCheckResult,
  newId,
  resultSubject,
} from '@guard/shared'
import { sampleCheckResult } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDomain } from '../services/domains/create.ts'
import { readMonitorStates } from '../services/monitor-state/read.ts'
import { selectRows } from '../services/results/query.ts'
import { collectorForTest, withOutage } from '../test-support.ts'
import { consumeResults, type IngestStats } from './consume-results.ts'
import { createIngestMetrics } from './metrics.ts'

const waitUntil = async (condition: () => boolean | Promise<boolean>, what: string) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('result ingest', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }

  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  const result = (monitorId: string) => sampleCheckResult(monitorId)
  const countRows = async (monitorId: string) => {
    const [row] = await selectRows<{ rows: string }>(
      harness.ctx.timeseries,
      'SELECT count() AS rows FROM check_results FINAL WHERE monitor_id = {id:String}',
      { id: monitorId },
    )
    return Number(row?.rows ?? 0)
  }

  it('stores each result once even when the same result is delivered twice', async () => {
    const monitorId = newId()
    const first = result(monitorId)
    const consumer = await consumeResults(harness.ctx, stats)
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(first), { msgId: first.id })
    // A redelivery after a crash carries the same result under a message id JetStream no longer remembers.
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(first), { msgId: `${first.id}-redelivered` })
    await waitUntil(() => stats.stored >= 2, 'both deliveries stored')
    await consumer.stop()
    expect(await countRows(monitorId)).toBe(1)
  })

  it('dead-letters a message that breaks the wire contract and keeps consuming', async () => {
    const monitorId = newId()
    const deadLetters: DeadLetter[] = []
    const subscription = await harness.ctx.bus.subscribe(deadLetterSubject('results'), (data) => {
      deadLetters.push(decodeDeadLetter(data))
    })
    const consumer = await consumeResults(harness.ctx, stats)
    const deadBefore = stats.deadLettered
    await harness.ctx.bus.publish(resultSubject('fra'), new TextEncoder().encode('{"v":1,"garbage":true}'), {
      msgId: newId(),
    })
    const good = result(monitorId)
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(good), { msgId: good.id })
    await waitUntil(async () => (await countRows(monitorId)) === 1, 'the valid result stored')
    await waitUntil(() => deadLetters.length === 1, 'the dead letter')
    expect(stats.deadLettered).toBe(deadBefore + 1)
    expect(deadLetters[0]).toMatchObject({ source: 'results', reason: 'contract', subject: resultSubject('fra') })
    expect(Buffer.from(deadLetters[0]!.data, 'base64').toString()).toContain('garbage')
    await consumer.stop()
    await subscription.stop()
  })

  it('acks nothing when the insert fails, so the batch is delivered again', async () => {
    const monitorId = newId()
    const { client } = harness.ctx.timeseries
    const unavailable = Object.assign(Object.create(client), {
      insert: async () => {
        throw new Error('ClickHouse unavailable')
      },
    }) as typeof client
    const broken = { ...harness.ctx, timeseries: { ...harness.ctx.timeseries, client: unavailable } }
    const failing = await consumeResults(broken, stats)
    const pending = result(monitorId)
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(pending), { msgId: pending.id })
    await new Promise((resolve) => setTimeout(resolve, 300))
    await failing.stop()
    expect(await countRows(monitorId)).toBe(0)

    const healthy = await consumeResults(harness.ctx, stats)
    await waitUntil(async () => (await countRows(monitorId)) === 1, 'the redelivered result stored')
    await healthy.stop()
  })

  it('drives the monitor state from ingested results and counts a redelivery once in the rollups', async () => {
    const caller = {
      principal: { kind: 'api_key' as const, id: 'test' },
      organizationId: DEFAULT_ORGANIZATION.id,
      organizationIds: [DEFAULT_ORGANIZATION.id],
      permissions: ['*:*'],
    }
    const domain = await createDomain({ ctx: harness.ctx, caller, input: { url: 'https://state.example' } })
    const metrics = createIngestMetrics()
    const consumer = await consumeResults(harness.ctx, stats, metrics)
    const failures = [1, 2].map((second) => ({
      ...result(domain.id),
      status: 'down' as const,
      startedAt: new Date(Date.now() - 10_000 + second * 1000).toISOString(),
    }))
    for (const failure of failures) {
      await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(failure), { msgId: failure.id })
    }
    // The first failure again, as a redelivery after a crash would bring it.
    await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(failures[0]!), {
      msgId: `${failures[0]!.id}-again`,
    })
    await waitUntil(
      async () => (await readMonitorStates(harness.ctx.sql, [domain.id])).get(domain.id)?.status === 'down',
      'the domain down',
    )
    await waitUntil(() => metrics.duplicates.get().then((m) => m.values[0]?.value === 1), 'the duplicate counted')
    await consumer.stop()

    for (const table of ['check_results_1m', 'check_results_1h']) {
      const [row] = await selectRows<{ checks: number; failures: number }>(
        harness.ctx.timeseries,
        `SELECT sum(checks) AS checks, sum(failures) AS failures FROM ${table} WHERE monitor_id = {id:String}`,
        { id: domain.id },
      )
      expect(row, table).toEqual({ checks: 2, failures: 2 })
    }
    const { rows } = await harness.ctx.sql.query<{ subject: string; published: boolean }>(
      `SELECT subject, published_at IS NOT NULL AS published FROM monitoring.event_outbox WHERE id LIKE $1`,
      [`%${domain.id}%`],
    )
    expect(rows).toEqual([{ subject: 'events.monitor.down', published: true }])
    const exposition = await metrics.registry.metrics()
    expect(exposition).toMatch(/guard_ingest_batch_size_count [1-9]/)
    expect(exposition).toMatch(/guard_ingest_lag_seconds_count [1-9]/)
    expect(exposition).toMatch(/guard_ingest_results_stored_total 2/)
  })

  it('records the down transition of a target that failed while PostgreSQL was away, retrying in order', async () => {
    const caller = {
      principal: { kind: 'api_key' as const, id: 'test' },
      organizationId: DEFAULT_ORGANIZATION.id,
      organizationIds: [DEFAULT_ORGANIZATION.id],
      permissions: ['*:*'],
    }
    const domain = await createDomain({ ctx: harness.ctx, caller, input: { url: 'https://outage.example' } })
    const outage = withOutage(harness.ctx.sql)
    const sql = harness.ctx.sql
    const metrics = createIngestMetrics()
    const consumer = await consumeResults({ ...harness.ctx, sql: outage.sql }, stats, metrics)
    const base = Date.now() - 60_000
    const at = (second: number) => new Date(base + second * 1000).toISOString()
    const publish = async (second: number, status: 'up' | 'down') => {
      const checked = { ...result(domain.id), status, startedAt: at(second) }
      await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(checked), { msgId: checked.id })
    }
    await publish(0, 'up')
    await waitUntil(
      async () => (await readMonitorStates(sql, [domain.id])).get(domain.id)?.status === 'up',
      'the domain up',
    )

    outage.setDown(true)
    // One result per batch: each failing batch is followed by newer ones, as checks keep running.
    for (const second of [5, 10, 15, 20]) {
      await publish(second, 'down')
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
    await waitUntil(
      () =>
        metrics.storeFailures
          .get()
          .then((m) => (m.values.find((v) => v.labels.store === 'relational')?.value ?? 0) >= 2),
      'the store failing',
    )
    expect((await metrics.registry.metrics()).match(/guard_ingest_results_stored_total (\d+)/)?.[1]).toBe('1')
    outage.setDown(false)

    await waitUntil(
      async () => (await readMonitorStates(sql, [domain.id])).get(domain.id)?.status === 'down',
      'the domain down',
    )
    await waitUntil(() => metrics.stored.get().then((m) => m.values[0]?.value === 5), 'all five results stored')
    await consumer.stop()
    // The down transition is the event the incident engine opens the incident from.
    const { rows } = await sql.query<{ payload: string }>(
      `SELECT payload FROM monitoring.event_outbox WHERE subject = 'events.monitor.down'`,
    )
    const downs = rows
      .map((row) => JSON.parse(row.payload) as { occurredAt: string; data: { monitorId: string } })
      .filter((event) => event.data.monitorId === domain.id)
    // Down after the second consecutive failure, at that failure's time.
    expect(downs.map((event) => event.occurredAt)).toEqual([at(10)])
  })

  const caller = {
    principal: { kind: 'api_key' as const, id: 'test' },
    organizationId: DEFAULT_ORGANIZATION.id,
    organizationIds: [DEFAULT_ORGANIZATION.id],
    permissions: ['*:*'],
  }
  const collectDeadLetters = async () => {
    const letters: DeadLetter[] = []
    const subscription = await harness.ctx.bus.subscribe(deadLetterSubject('results'), (data) => {
      letters.push(decodeDeadLetter(data))
    })
    return { letters, stop: () => subscription.stop() }
  }

  it('dead-letters a result PostgreSQL refuses, with the reason, and stores the rest of its batch', async () => {
    const domains = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        createDomain({ ctx: harness.ctx, caller, input: { url: `https://${name}.poison.example` } }),
      ),
    )
    const deadLetters = await collectDeadLetters()
    const consumer = await consumeResults(harness.ctx, stats)
    // A NUL passes the wire contract but not PostgreSQL's JSON (SQLSTATE 22P05): a data error.
    const poison = { ...result(domains[1]!.id), status: 'down' as const, error: 'body quoted \u0000 here' }
    const batch = [result(domains[0]!.id), poison, result(domains[2]!.id)]
    for (const entry of batch) {
      await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(entry), { msgId: entry.id })
    }
    await waitUntil(async () => (await countRows(domains[2]!.id)) === 1, 'the results behind the poison stored')
    await waitUntil(() => deadLetters.letters.length === 1, 'the dead letter')
    expect(await countRows(domains[0]!.id)).toBe(1)
    expect(await countRows(domains[1]!.id)).toBe(0)
    expect(deadLetters.letters[0]).toMatchObject({
      reason: 'data',
      msgId: poison.id,
      organizationId: poison.organizationId,
    })
    expect(deadLetters.letters[0]!.error).toMatch(/Unicode escape/)
    await consumer.stop()
    await deadLetters.stop()
  })

  it('dead-letters a result ClickHouse refuses and stores the rest of its batch', async () => {
    const monitorIds = [newId(), newId(), newId(), newId()]
    const marked = new Set<string>()
    const { client } = harness.ctx.timeseries
    // Writes the marked result's error as a lone surrogate escape, as a decoder before this fix let through.
    const corrupting = Object.assign(Object.create(client), {
      insert: (params: Parameters<typeof client.insert>[0]) =>
        client.insert({
          ...params,
          values: (params.values as unknown[][]).map((row) =>
            marked.has(row[0] as string) ? row.map((value, index) => (index === 9 ? 'x\ud83d' : value)) : row,
          ),
        }),
    }) as typeof client
    const ctx = { ...harness.ctx, timeseries: { ...harness.ctx.timeseries, client: corrupting } }
    const deadLetters = await collectDeadLetters()
    const consumer = await consumeResults(ctx, stats)
    const batch = monitorIds.map((monitorId) => result(monitorId))
    marked.add(batch[2]!.id)
    for (const entry of batch) {
      await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(entry), { msgId: entry.id })
    }
    await waitUntil(() => deadLetters.letters.length === 1, 'the dead letter')
    await waitUntil(async () => (await countRows(monitorIds[3]!)) === 1, 'the last result stored')
    expect(await Promise.all(monitorIds.map(countRows))).toEqual([1, 1, 0, 1])
    expect(deadLetters.letters[0]).toMatchObject({ reason: 'data', msgId: batch[2]!.id })
    await consumer.stop()
    await deadLetters.stop()
  })
})
