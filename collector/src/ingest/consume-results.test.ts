import { type CheckResult, DEFAULT_ORGANIZATION, encodeCheckResult, newId, resultSubject } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../services/results/query.ts'
import { collectorForTest } from '../test-support.ts'
import { consumeResults, DEAD_LETTER_SUBJECT, type IngestStats } from './consume-results.ts'

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

  const result = (monitorId: string): CheckResult => ({
    v: 1,
    id: newId(),
    monitorId,
    organizationId: DEFAULT_ORGANIZATION.id,
    location: 'fra',
    kind: 'http',
    status: 'up',
    startedAt: new Date().toISOString(),
    responseTimeMs: 42,
    statusCode: 200,
  })
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
    const deadLetters: string[] = []
    const subscription = await harness.ctx.bus.subscribe(DEAD_LETTER_SUBJECT, (data) => {
      deadLetters.push(new TextDecoder().decode(data))
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
    expect(deadLetters[0]).toContain('garbage')
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
})
