import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, type RunningCollector, startCollector } from '@guard/collector'
import { parseIdentityEnv, type RunningIdentity, startIdentity } from '@guard/identity'
import {
  type Bus,
  createLogger,
  createNatsBus,
  encodeCheckResult,
  guardStreams,
  openRelationalStore,
  type RelationalStore,
  resultSubject,
  type TimeSeriesStore,
} from '@guard/shared'
import { openTestTimeSeriesStore, sampleCheckResult, startNatsServer, startPostgres } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from '../support/collector-client.ts'

/**
 * A primary and its streaming replica (pg_basebackup -R), one DATABASE_URL naming both in libpq's
 * form. Results flow onto the bus the whole time; the primary stops, the replica is promoted, and
 * the collector and identity, never restarted, follow it: the API answers 503 with Retry-After
 * in between, and every result published is stored once, none acknowledged and lost.
 */
const nats = await startNatsServer()
const primary = await startPostgres()
const standby = primary && (await startPostgres({ standbyOf: primary }))
/** Long enough for the ingest to meet the missing primary several times, short for CI. */
const SWITCH_MS = 4000
const RECOVERY_BOUND_MS = 30_000

describe.skipIf(!nats || !standby)('PostgreSQL failover to a promoted replica', () => {
  const log = createLogger({ name: 'pg-failover', level: 'silent', pretty: false })
  const stores: RelationalStore[] = []
  let timeseries: TimeSeriesStore
  let bus: Bus
  let publisher: Bus
  let collector: RunningCollector
  let identity: RunningIdentity
  let api: ReturnType<typeof collectorClient>
  let dataDir: string

  beforeAll(async () => {
    const databaseUrl = `postgres://guard@127.0.0.1:${primary!.port},127.0.0.1:${standby!.port}/guard?target_session_attrs=read-write`
    const env = collectorEnvSchema.parse({
      NATS_URL: nats!.url,
      DATABASE_URL: databaseUrl,
      GUARD_COLLECTOR_PORT: '0',
      GUARD_INGEST_MAX_WAIT_MS: '50',
      GUARD_INGEST_ACK_WAIT_MS: '3000',
      GUARD_RATE_LIMIT_READ: '1000000',
      GUARD_RATE_LIMIT_WRITE: '1000000',
    })
    timeseries = await openTestTimeSeriesStore()
    const sql = await openRelationalStore({ databaseUrl, dataDir: '/nonexistent' })
    stores.push(sql)
    bus = await createNatsBus({ servers: nats!.url, name: 'collector', streams: guardStreams })
    collector = await startCollector({ env, log, sql, bus, timeseries })
    api = collectorClient(collector.url, collector.bootstrapApiKey!)

    dataDir = await mkdtemp(join(tmpdir(), 'guard-pg-failover-'))
    const identitySql = await openRelationalStore({ databaseUrl, dataDir: '/nonexistent' })
    stores.push(identitySql)
    identity = await startIdentity({
      env: parseIdentityEnv({
        DATABASE_URL: databaseUrl,
        GUARD_IDENTITY_PORT: '0',
        GUARD_DATA_DIR: dataDir,
        GUARD_SECRET_KEY: 'postgres-failover-secret-postgres-failover',
        LOG_LEVEL: 'silent',
      }),
      log,
      sql: identitySql,
    })
    publisher = await createNatsBus({ servers: nats!.url, name: 'failover-publisher', streams: guardStreams })
  }, 120_000)

  afterAll(async () => {
    await identity?.close()
    await collector?.close()
    await publisher?.close()
    await bus?.close()
    await Promise.all(stores.map((store) => store.close()))
    await timeseries?.close()
    await standby?.stop()
    await primary?.stop()
    await nats?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('answers 503 with Retry-After during the switch, then stores every result without a restart', async () => {
    const created = await api.post('/api/domains', { url: 'https://failover.example', checkInterval: 3600 })
    expect(created.status).toBe(201)
    const monitorId = (created.body.data as { id: string }).id
    const published: string[] = []
    let publishing = true
    const flow = (async () => {
      while (publishing) {
        const result = sampleCheckResult(monitorId, {
          startedAt: new Date(Date.now() - 600_000 + published.length * 10).toISOString(),
          responseTimeMs: published.length,
        })
        await publisher.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
        published.push(result.id)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    const storedIds = async () => {
      const result = await timeseries.client.query({
        query: 'SELECT id FROM check_results WHERE monitor_id = {id:String}',
        query_params: { id: monitorId },
        format: 'JSONEachRow',
      })
      return ((await result.json()) as Array<{ id: string }>).map((row) => row.id)
    }
    await eventually(async () => ((await storedIds()).length >= 20 ? true : undefined), 'results flowing', 20_000)

    await primary!.stopKeepingData()
    const stoppedAt = Date.now()
    const refused = await eventually(
      async () => {
        const response = await fetch(`${collector.url}/api/domains`, {
          headers: { authorization: `Bearer ${collector.bootstrapApiKey}` },
        })
        return response.status === 503 ? response : undefined
      },
      'a 503 from the API while no server accepts writes',
      10_000,
    )
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE' })
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SWITCH_MS - (Date.now() - stoppedAt))))

    await standby!.promote()
    const promotedAt = Date.now()
    await eventually(
      async () => ((await api.get('/api/domains')).status === 200 ? true : undefined),
      'the collector API answering from the promoted replica',
      RECOVERY_BOUND_MS,
    )
    const apiRecoveryMs = Date.now() - promotedAt
    await eventually(
      async () => {
        const plans = (await (await fetch(`${identity.url}/api/v1/plans`)).json()) as { source: string }
        return plans.source === 'db' ? true : undefined
      },
      'identity reading plans from the promoted replica',
      RECOVERY_BOUND_MS,
    )
    const identityRecoveryMs = Date.now() - promotedAt
    // Writes, not only reads, go to the promoted replica.
    expect((await api.post('/api/domains', { url: 'https://after.example', checkInterval: 3600 })).status).toBe(201)

    publishing = false
    await flow
    const ids = await eventually(
      async () => {
        const stored = await storedIds()
        return new Set(stored).size >= published.length ? stored : undefined
      },
      'every published result stored',
      RECOVERY_BOUND_MS,
    )
    const storedAt = Date.now()
    expect([...new Set(ids)].sort()).toEqual([...published].sort())
    console.log(
      JSON.stringify({
        pgFailover: {
          published: published.length,
          stored: new Set(ids).size,
          duplicatedRows: ids.length - new Set(ids).size,
          lost: published.filter((id) => !ids.includes(id)).length,
          apiRecoveryMs,
          identityRecoveryMs,
          allStoredMsAfterPromote: storedAt - promotedAt,
        },
      }),
    )
  }, 90_000)
})
