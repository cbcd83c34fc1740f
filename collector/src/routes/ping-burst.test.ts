import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Bus,
  createLogger,
  guardStreams,
  listeningUrl,
  openDurableInProcessBus,
  type RelationalStore,
  type Stoppable,
  type TimeSeriesStore,
} from '@guard/shared'
import { openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import autocannon from 'autocannon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import type { CollectorContext } from '../context.ts'
import { collectorEnvSchema } from '../env.ts'
import { consumeHeartbeatPings, type PingIngestStats } from '../ingest/consume-heartbeat-pings.ts'
import { consumeResults } from '../ingest/consume-results.ts'
import { prepareCollector } from '../server.ts'
import { seedHeartbeatFleet, waitUntil } from '../test-support.ts'

const TOKENS = 1000
const RATE = 10_000
const SECONDS = 10
const PER_TOKEN_LIMIT = 200

/**
 * The burst: 10,000 pings a second from 1,000 tokens for 10 s, on embedded mode's on-disk
 * bus (fsync before 200). Whatever the collector answered 200 must end up in the run log; what it
 * could not take it must not have answered 200. The offered rate is the bound, not the outcome:
 * how many are accepted depends on the machine, and bench/heartbeats reports that.
 */
describe('pings under a burst', () => {
  let dir: string
  let sql: RelationalStore
  let timeseries: TimeSeriesStore
  let bus: Bus
  let ctx: CollectorContext
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const consumers: Stoppable[] = []
  const stats: PingIngestStats = { stored: 0, deadLettered: 0, batches: 0 }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-ping-burst-'))
    sql = await openTestRelationalStore()
    timeseries = await openTestTimeSeriesStore()
    bus = await openDurableInProcessBus({
      dir,
      streams: guardStreams,
      fsync: 'always',
      maxBytes: 256 * 1024 * 1024,
      maxAgeMs: 3600_000,
    })
    const env = collectorEnvSchema.parse({
      GUARD_SECRET_KEY: 'collector-test-secret-key-collector-test',
      GUARD_INGEST_MAX_WAIT_MS: '100',
      GUARD_PING_MAX_PER_MINUTE: String(PER_TOKEN_LIMIT),
    })
    const log = createLogger({ name: 'ping-burst', level: 'silent', pretty: false })
    ctx = (await prepareCollector({ env, log, sql, timeseries, bus })).ctx
    app = await buildCollectorApp(ctx)
    await app.listen({ host: '127.0.0.1', port: 0 })
    consumers.push(
      await consumeHeartbeatPings(ctx, stats),
      await consumeResults(ctx, { stored: 0, deadLettered: 0, batches: 0 }),
    )
  })

  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop()
    await app?.close()
    await bus?.close()
    await timeseries?.close()
    await sql?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const storedPerHeartbeat = async () => {
    const result = await timeseries.client.query({
      query: 'SELECT monitor_id, uniqExact(id) AS n FROM heartbeat_pings GROUP BY monitor_id',
      format: 'JSONEachRow',
    })
    const rows = await result.json<{ monitor_id: string; n: string }>()
    return new Map(rows.map((row) => [row.monitor_id, Number(row.n)]))
  }

  it('loses none of the pings it answered 200 in a 10,000/s burst from 1,000 tokens', async () => {
    const fleet = await seedHeartbeatFleet(ctx, TOKENS, () => new Date(Date.now() + 3_600_000))
    const answered = new Map<string, number>()
    let sent = 0
    await autocannon({
      url: listeningUrl(app),
      connections: 100,
      overallRate: RATE,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          setupRequest: (request, context) => {
            const heartbeat = fleet[sent++ % fleet.length]!
            Object.assign(context, { heartbeatId: heartbeat.id })
            return {
              ...request,
              path: `/ping/${heartbeat.token}`,
              headers: { 'content-type': 'text/plain' },
              body: 'ok',
            }
          },
          onResponse: (status, _body, context) => {
            if (status !== 200) return
            const { heartbeatId: id } = context as { heartbeatId: string }
            answered.set(id, (answered.get(id) ?? 0) + 1)
          },
        },
      ],
    })
    const accepted = [...answered.values()].reduce((sum, count) => sum + count, 0)
    expect(accepted).toBeGreaterThan(0)
    // A connection cut at the end of the run may have been stored without its answer being counted:
    // stored may exceed answered, never the other way round.
    await waitUntil(() => stats.stored >= accepted, 'the pings answered 200 to be stored', 120_000)
    const stored = await storedPerHeartbeat()
    const short = [...answered].filter(([id, count]) => (stored.get(id) ?? 0) < count)
    expect(short).toEqual([])
    expect(stats.deadLettered).toBe(0)
  }, 180_000)

  it('answers a token past its per-minute limit 429 with Retry-After, and keeps the pings it took', async () => {
    const [hot] = await seedHeartbeatFleet(ctx, 1, () => new Date(Date.now() + 3_600_000))
    // The limit's window is the wall-clock minute: start where the whole exchange fits in one.
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100))
    const statuses: number[] = []
    let retryAfter: string | null = null
    for (let sent = 0; sent < PER_TOKEN_LIMIT + 20; sent += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${listeningUrl(app)}/ping/${hot!.token}`, { method: 'POST', body: 'x' }),
        ),
      )
      for (const answer of answers) {
        statuses.push(answer.status)
        if (answer.status === 429) retryAfter ??= answer.headers.get('retry-after')
        await answer.arrayBuffer()
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(PER_TOKEN_LIMIT)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20)
    expect(Number(retryAfter)).toBeGreaterThan(0)
    await waitUntil(async () => ((await storedPerHeartbeat()).get(hot!.id) ?? 0) >= PER_TOKEN_LIMIT, 'the taken pings')
    expect((await storedPerHeartbeat()).get(hot!.id)).toBe(PER_TOKEN_LIMIT)
  }, 60_000)
})
