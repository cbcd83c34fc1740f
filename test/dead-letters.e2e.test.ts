import {
  DEFAULT_ORGANIZATION,
  DEVICES_STREAM,
  encodeCheckResult,
  type GuardFastify,
  newId,
  resultSubject,
} from '@guard/shared'
import { sampleCheckResult } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDeadLettersCommand } from '../bin/commands/dead-letters.ts'
import { buildCollectorApp } from '../collector/src/app.ts'
import { consumeDeadLetters } from '../collector/src/ingest/consume-dead-letters.ts'
import { HEARTBEAT_DURABLE } from '../collector/src/ingest/consume-device-heartbeats.ts'
import {
  consumeResults,
  INGEST_DURABLE,
  type IngestStats,
  RESULTS_STREAM,
} from '../collector/src/ingest/consume-results.ts'
import { createIngestMetrics } from '../collector/src/ingest/metrics.ts'
import { createIngestWatch, type IngestWatch } from '../collector/src/ingest/watch.ts'
import { createDomain } from '../collector/src/services/domains/create.ts'
import { selectRows } from '../collector/src/services/results/query.ts'
import { collectorForTest, waitUntil, withOutage } from '../collector/src/test-support.ts'
import { startTestIdentity, type TestIdentity } from '../identity/src/oauth/testing.ts'
import { ensureAdminToken } from '../identity/src/services/admin-tokens/ensure.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

const callerOf = (organizationId: string) => ({
  principal: { kind: 'api_key' as const, id: 'test' },
  organizationId,
  organizationIds: [organizationId],
  permissions: ['*:*'],
})

const storedRows = async (harness: Harness, monitorIds: string[]) => {
  const [row] = await selectRows<{ rows: string }>(
    harness.ctx.timeseries,
    'SELECT count() AS rows FROM check_results FINAL WHERE monitor_id IN {ids:Array(String)}',
    { ids: monitorIds },
  )
  return Number(row?.rows ?? 0)
}

const watchOf = (harness: Harness, stats: IngestStats, stallMs: number) =>
  createIngestWatch(
    harness.ctx,
    [
      {
        name: 'results',
        stream: RESULTS_STREAM,
        durable: INGEST_DURABLE,
        settled: () => stats.stored + stats.deadLettered,
      },
      { name: 'devices', stream: DEVICES_STREAM, durable: HEARTBEAT_DURABLE, settled: () => 0 },
    ],
    stallMs,
  )

const health = async (app: GuardFastify) => {
  const response = await app.inject({ method: 'GET', url: '/api/health' })
  return response.json() as {
    status: string
    ingest: Array<{ name: string; status: string; backlog: number; idleSeconds: number }>
  }
}

describe('a malformed result every cycle', () => {
  let harness: Harness
  let app: GuardFastify
  let watch: IngestWatch
  const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }

  beforeAll(async () => {
    harness = await collectorForTest()
    watch = watchOf(harness, stats, 1000)
    app = await buildCollectorApp(harness.ctx, { ingest: watch })
  })
  afterAll(async () => {
    watch.stop()
    await app.close()
    await harness.close()
  })

  it('stores every other result of both organizations and keeps the malformed ones as dead letters', async () => {
    const organizations = [DEFAULT_ORGANIZATION.id, `org_${newId()}`]
    const monitors = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        createDomain({
          ctx: harness.ctx,
          caller: callerOf(organizations[index % 2]!),
          input: { url: `https://monitor-${index}.poison.example` },
        }),
      ),
    )
    const [poisoned, ...healthy] = monitors
    const metrics = createIngestMetrics()
    const ingest = await consumeResults(harness.ctx, stats, metrics)
    const keeper = await consumeDeadLetters(harness.ctx, metrics)
    const cycles = 6
    const start = Date.now() - cycles * 60_000
    for (let cycle = 0; cycle < cycles; cycle += 1) {
      for (const monitor of monitors) {
        const result = sampleCheckResult(monitor.id, {
          organizationId: monitor.organizationId,
          startedAt: new Date(start + cycle * 60_000).toISOString(),
          ...(monitor === poisoned ? { status: 'down' as const, error: 'answered \u0000 in its body' } : {}),
        })
        await harness.ctx.bus.publish(resultSubject(cycle % 2 ? 'fra' : 'iad'), encodeCheckResult(result), {
          msgId: result.id,
        })
      }
    }
    const healthyIds = healthy.map((monitor) => monitor.id)
    await waitUntil(
      async () => (await storedRows(harness, healthyIds)) === healthyIds.length * cycles,
      'every healthy result',
      30_000,
    )
    await waitUntil(async () => {
      const { rows } = await harness.ctx.sql.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM monitoring.dead_letters WHERE source = 'results'",
      )
      return rows[0]!.count === cycles
    }, 'one dead letter per cycle')
    expect(await storedRows(harness, [poisoned!.id])).toBe(0)
    const { rows } = await harness.ctx.sql.query<{ reason: string; organization_id: string }>(
      'SELECT DISTINCT reason, organization_id FROM monitoring.dead_letters',
    )
    expect(rows).toEqual([{ reason: 'data', organization_id: poisoned!.organizationId }])
    expect(await metrics.registry.metrics()).toContain(
      `guard_ingest_dead_letter_total{source="results",reason="data"} ${cycles}`,
    )
    await waitUntil(async () => (await health(app)).ingest[0]!.backlog === 0, 'the backlog drained')
    const answer = await health(app)
    expect(answer.status).toBe('ok')
    expect(answer.ingest[0]).toMatchObject({ name: 'results', status: 'ok', backlog: 0 })
    await ingest.stop()
    await keeper.stop()
  }, 60_000)

  it('reports an ingest that stopped advancing while results wait as degraded, with its backlog', async () => {
    const outage = withOutage(harness.ctx.sql)
    outage.setDown(true)
    const ingest = await consumeResults({ ...harness.ctx, sql: outage.sql }, stats)
    const monitorId = newId()
    for (let index = 0; index < 3; index += 1) {
      const result = sampleCheckResult(monitorId)
      await harness.ctx.bus.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
    }
    await waitUntil(async () => (await health(app)).status === 'degraded', 'the stall reported', 15_000)
    expect((await health(app)).ingest[0]).toMatchObject({ name: 'results', status: 'stalled', backlog: 3 })
    outage.setDown(false)
    await waitUntil(async () => (await health(app)).status === 'ok', 'the ingest advancing again', 15_000)
    await ingest.stop()
  }, 40_000)
})

describe('the dead-letter admin API and CLI', () => {
  let identity: TestIdentity
  let harness: Harness
  let app: GuardFastify
  let adminToken: string

  beforeAll(async () => {
    identity = await startTestIdentity()
    adminToken = (await ensureAdminToken(identity.sql))!
    harness = await collectorForTest({ GUARD_IDENTITY_URL: identity.url })
    app = await buildCollectorApp(harness.ctx)
    await app.listen({ host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
    await identity.close()
  })

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string) =>
    app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {} })

  it('lists, replays and drops dead letters for the operator only', async () => {
    const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
    const metrics = createIngestMetrics()
    const ingest = await consumeResults(harness.ctx, stats, metrics)
    const keeper = await consumeDeadLetters(harness.ctx, metrics)
    const garbage = ['{"v":1,"garbage":1}', '{"v":1,"garbage":2}']
    for (const text of garbage) {
      await harness.ctx.bus.publish(resultSubject('fra'), new TextEncoder().encode(text), { msgId: newId() })
    }
    const listed = async () =>
      (await call('GET', '/api/admin/dead-letters?source=results', adminToken)).json() as {
        data: { deadLetters: Array<{ id: string; reason: string; preview: string }>; total: number }
      }
    await waitUntil(async () => (await listed()).data.total === 2, 'both dead letters listed')

    expect((await call('GET', '/api/admin/dead-letters')).statusCode).toBe(401)
    expect((await call('GET', '/api/admin/dead-letters', harness.apiKey)).statusCode).toBe(401)
    expect((await call('GET', '/api/admin/dead-letters', 'guard_admin_not-a-real-token')).statusCode).toBe(401)
    expect((await call('GET', '/api/admin/dead-letters?source=nope', adminToken)).statusCode).toBe(400)

    const { deadLetters } = (await listed()).data
    expect(deadLetters.map((letter) => letter.reason)).toEqual(['contract', 'contract'])
    expect(deadLetters.map((letter) => letter.preview).sort()).toEqual(garbage)

    const printed: string[] = []
    const env = {
      GUARD_COLLECTOR_URL: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
      GUARD_ADMIN_TOKEN: adminToken,
    }
    expect(await runDeadLettersCommand(['drop', deadLetters[0]!.id], env, (text) => printed.push(text))).toBe(0)
    expect(JSON.parse(printed[0]!)).toEqual({ id: deadLetters[0]!.id, deleted: true })
    expect((await call('DELETE', `/api/admin/dead-letters/${deadLetters[0]!.id}`, adminToken)).statusCode).toBe(404)

    // Replayed, the message is refused again and comes back as a new dead letter.
    const before = stats.deadLettered
    expect(await runDeadLettersCommand(['replay', deadLetters[1]!.id], env, (text) => printed.push(text))).toBe(0)
    expect(JSON.parse(printed[1]!)).toEqual({ id: deadLetters[1]!.id, subject: resultSubject('fra') })
    await waitUntil(() => stats.deadLettered === before + 1, 'the replayed message consumed again')
    await waitUntil(async () => (await listed()).data.total === 1, 'the replay kept as a new dead letter')
    expect((await listed()).data.deadLetters[0]!.id).not.toBe(deadLetters[1]!.id)

    expect(await runDeadLettersCommand(['list', '--source', 'results'], env, (text) => printed.push(text))).toBe(0)
    expect(JSON.parse(printed[2]!)).toMatchObject({ total: 1 })
    await expect(runDeadLettersCommand(['replay'], env)).rejects.toThrow("replay needs the dead letter's id")
    await ingest.stop()
    await keeper.stop()
  }, 60_000)
})
