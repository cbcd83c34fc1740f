import {
  type CheckResult,
  DEFAULT_ORGANIZATION,
  encodeCheckResult,
  type RelationalStore,
  resultSubject,
  type Sql,
  type TimeSeriesStore,
} from '@guard/shared'
import { sampleCheckResult } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CollectorContext } from '../context.ts'
import { createDomain } from '../services/domains/create.ts'
import { readMonitorStates } from '../services/monitor-state/read.ts'
import { selectRows } from '../services/results/query.ts'
import { collectorForTest, waitUntil } from '../test-support.ts'
import { consumeResults, type IngestStats } from './consume-results.ts'
import { createIngestMetrics } from './metrics.ts'

describe('result ingest behind a busy store', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>

  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  const caller = {
    principal: { kind: 'api_key' as const, id: 'test' },
    organizationId: DEFAULT_ORGANIZATION.id,
    organizationIds: [DEFAULT_ORGANIZATION.id],
    permissions: ['*:*'],
  }
  const gate = () => {
    let open = () => {}
    const opened = new Promise<void>((resolve) => {
      open = resolve
    })
    return { open, opened }
  }
  const storedRows = async (monitorId: string) => {
    const [stored] = await selectRows<{ rows: string }>(
      harness.ctx.timeseries,
      'SELECT count() AS rows FROM check_results FINAL WHERE monitor_id = {id:String}',
      { id: monitorId },
    )
    return Number(stored?.rows)
  }
  /** The ingest on `ctx`, with how many batches it has fetched so far. */
  const startIngest = async (ctx: CollectorContext) => {
    const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
    const metrics = createIngestMetrics()
    const consumer = await consumeResults(ctx, stats, metrics)
    const fetched = async () =>
      (await metrics.batchSize.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value
    return { stats, consumer, fetched }
  }
  const publishOneBatchEach = async (results: CheckResult[], fetched: () => Promise<number | undefined>) => {
    for (const [index, checked] of results.entries()) {
      await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(checked), { msgId: checked.id })
      await waitUntil(async () => (await fetched()) === index + 1, `batch ${index + 1} fetched`)
    }
  }

  it('stores the batches that arrived while PostgreSQL was busy as one group, in order, each result once', async () => {
    const domain = await createDomain({ ctx: harness.ctx, caller, input: { url: 'https://grouped.example' } })
    // PostgreSQL answers nothing until released: the stores stay busy with the first batch.
    const { open: release, opened: released } = gate()
    const sql = harness.ctx.sql
    const held: RelationalStore = Object.assign(Object.create(sql) as RelationalStore, {
      transaction: async <T>(work: (tx: Sql) => Promise<T>) => {
        await released
        return sql.transaction(work)
      },
    })
    const { stats, consumer, fetched } = await startIngest({ ...harness.ctx, sql: held })
    const base = Date.now() - 60_000
    const statuses = ['up', 'down', 'down', 'up'] as const
    const results = statuses.map((status, index) => ({
      ...sampleCheckResult(domain.id),
      status,
      startedAt: new Date(base + index * 10_000).toISOString(),
    }))
    // One batch each: the next is published once the ingest has fetched the one before.
    await publishOneBatchEach(results, fetched)
    release()
    await waitUntil(() => stats.stored === 4, 'all four results stored')
    await consumer.stop()

    // The first went in alone; the three fetched while PostgreSQL held it, together once it was free.
    expect(stats.batches).toBe(2)
    expect((await readMonitorStates(sql, [domain.id])).get(domain.id)?.status).toBe('up')
    const { rows } = await sql.query<{ id: string }>(
      'SELECT id FROM monitoring.event_outbox WHERE id LIKE $1 ORDER BY seq',
      [`monitor.%:${domain.id}:%`],
    )
    expect(rows.map((row) => row.id)).toEqual([
      `monitor.down:${domain.id}:${Date.parse(results[2]!.startedAt)}`,
      `monitor.up:${domain.id}:${Date.parse(results[3]!.startedAt)}`,
    ])
    expect(await storedRows(domain.id)).toBe(4)
  })

  it('inserts the groups that left PostgreSQL while ClickHouse was busy as one insert, in order, each result once', async () => {
    const domain = await createDomain({ ctx: harness.ctx, caller, input: { url: 'https://inserted.example' } })
    // ClickHouse takes no insert until released; PostgreSQL answers as usual.
    const { open: release, opened: released } = gate()
    const timeseries = harness.ctx.timeseries
    const inserts: number[] = []
    const client = new Proxy(timeseries.client, {
      get(target, property) {
        if (property === 'insert') {
          return async (params: Parameters<typeof target.insert>[0]) => {
            inserts.push(Array.isArray(params.values) ? params.values.length : -1)
            await released
            return target.insert(params)
          }
        }
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const held: TimeSeriesStore = { ...timeseries, client }
    const { stats, consumer, fetched } = await startIngest({ ...harness.ctx, timeseries: held })
    const base = Date.now() - 60_000
    const results = (['up', 'down', 'down'] as const).map((status, index) => ({
      ...sampleCheckResult(domain.id),
      status,
      startedAt: new Date(base + index * 10_000).toISOString(),
    }))
    // Each batch goes through PostgreSQL before the next is published: three groups.
    for (const [index, checked] of results.entries()) {
      await publishOneBatchEach([checked], async () => ((await fetched()) ?? 0) - index)
      await waitUntil(
        async () =>
          (await readMonitorStates(harness.ctx.sql, [domain.id])).get(domain.id)?.lastCheckAt === checked.startedAt,
        `batch ${index + 1} through PostgreSQL`,
      )
    }
    release()
    await waitUntil(() => stats.stored === 3, 'all three results stored')
    await consumer.stop()

    // The first group's insert was under way; the two behind it went in together.
    expect(stats.batches).toBe(3)
    expect(inserts).toEqual([1, 2])
    expect(await storedRows(domain.id)).toBe(3)
    expect((await readMonitorStates(harness.ctx.sql, [domain.id])).get(domain.id)?.status).toBe('down')
  })
})
