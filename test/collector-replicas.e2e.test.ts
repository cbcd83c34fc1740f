import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Bus, createNatsBus, encodeCheckResult, guardStreams, resultSubject } from '@guard/shared'
import { freePort, sampleCheckResult, startNatsServer, startPostgres } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const nats = await startNatsServer()
const postgres = await startPostgres()

/**
 * Two collector processes share one JetStream durable consumer and one PostgreSQL. chDB cannot be
 * shared between processes and no usable ClickHouse server installs here, so each replica keeps
 * its own chDB: the production collector, unchanged, writes to "its shard". The union of the two
 * stores stands for the shared ClickHouse: it must hold every published result, neither store may
 * hold one twice, and a result may sit in both stores only when the killed replica had stored it
 * without acking (the batch in flight at SIGKILL); on one shared ClickHouse those copies collapse
 * into one row (ReplacingMergeTree, FINAL, and the ingest's stored-id check).
 */
describe.skipIf(!nats || !postgres)('collector replicas on one JetStream consumer', () => {
  const dirs: string[] = []
  const replicas: Record<'a' | 'b', { process?: GuardProcess; env: Record<string, string>; url: string }> = {
    a: { env: {}, url: '' },
    b: { env: {}, url: '' },
  }
  let apiKey = ''
  let publisher: Bus
  const MAX_BATCH = 20

  const start = async (name: 'a' | 'b') => {
    const replica = replicas[name]
    replica.process = spawnGuard(['collector'], replica.env)
    const [, url] = (await replica.process.waitFor(
      /collector: (http:\/\/127\.0\.0\.1:\d+)/,
      60_000,
    )) as RegExpMatchArray
    replica.url = url!
    apiKey ||= replica.process.output().match(/api key: (guard_\S+)/)?.[1] ?? ''
  }
  const client = (name: 'a' | 'b') => collectorClient(replicas[name].url, apiKey)
  const storedBy = async (name: 'a' | 'b') => {
    const response = await fetch(new URL('/metrics', replicas[name].url), {
      headers: { authorization: `Bearer ${apiKey}` },
    })
    const match = (await response.text()).match(/^guard_ingest_results_stored_total (\d+)/m)
    return Number(match?.[1] ?? 0)
  }
  const historyOf = async (name: 'a' | 'b', monitorId: string) => {
    const { body } = await client(name).get(`/api/domains/${monitorId}/monitoring/history?range=1h&limit=1000`)
    return (body.data as Array<{ id: string }>).map((entry) => entry.id)
  }

  beforeAll(async () => {
    for (const name of ['a', 'b'] as const) {
      const dir = await mkdtemp(join(tmpdir(), `guard-replica-${name}-`))
      dirs.push(dir)
      replicas[name].env = {
        NATS_URL: nats!.url,
        DATABASE_URL: postgres!.url,
        GUARD_DATA_DIR: dir,
        GUARD_COLLECTOR_PORT: String(await freePort()),
        GUARD_INGEST_MAX_BATCH: String(MAX_BATCH),
        GUARD_INGEST_MAX_WAIT_MS: '50',
        GUARD_INGEST_ACK_WAIT_MS: '2000',
      }
    }
    // One after the other: the first creates the schema and prints the bootstrap key.
    await start('a')
    await start('b')
    publisher = await createNatsBus({ servers: nats!.url, name: 'replicas-publisher', streams: guardStreams })
  }, 150_000)

  afterAll(async () => {
    await publisher?.close()
    await Promise.all(Object.values(replicas).map((replica) => replica.process?.stop('SIGKILL')))
    await nats?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('counts one rate limit across both replicas', async () => {
    const remaining: number[] = []
    for (const name of ['a', 'b', 'a', 'b'] as const) {
      const response = await fetch(new URL('/api/domains', replicas[name].url), {
        headers: { authorization: `Bearer ${apiKey}` },
      })
      expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')))
    }
    expect(remaining.slice(1)).toEqual([remaining[0]! - 1, remaining[0]! - 2, remaining[0]! - 3])
  })

  it('splits the work and loses nothing when one replica is SIGKILLed', async () => {
    const created = await client('a').post('/api/domains', { url: 'https://replicas.example', checkInterval: 3600 })
    const monitorId = (created.body.data as { id: string }).id
    const published: string[] = []
    const publish = async (count: number) => {
      for (let index = 0; index < count; index += 1) {
        const result = sampleCheckResult(monitorId, {
          startedAt: new Date(Date.now() - 600_000 + published.length * 100).toISOString(),
          responseTimeMs: published.length,
        })
        await publisher.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
        published.push(result.id)
        // A trickle rather than a burst, so both replicas' pulls are waiting when messages arrive.
        if (index % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }

    await publish(200)
    const split = await eventually(
      async () => {
        const [a, b] = [await storedBy('a'), await storedBy('b')]
        return a + b >= 200 ? { a, b } : undefined
      },
      'both replicas storing the first 200',
      20_000,
    )
    expect(split.a).toBeGreaterThan(0)
    expect(split.b).toBeGreaterThan(0)

    const inFlight = publish(200)
    await new Promise((resolve) => setTimeout(resolve, 100))
    await replicas.a.process!.stop('SIGKILL')
    const killedAt = published.length
    await inFlight

    // B alone takes everything published once A is gone.
    await eventually(
      async () => {
        const b = new Set(await historyOf('b', monitorId))
        return published.slice(killedAt).every((id) => b.has(id)) ? true : undefined
      },
      'replica b storing everything published after the kill',
      30_000,
    )
    // A comes back on its own data; what it had stored stays, and the two stores together hold
    // every result (A's unacked batch was redelivered to B, or to A itself once restarted).
    await start('a')
    const [a, b] = await eventually(
      async () => {
        const stores = [await historyOf('a', monitorId), await historyOf('b', monitorId)] as const
        return new Set([...stores[0], ...stores[1]]).size >= published.length ? stores : undefined
      },
      'both stores together holding every result',
      30_000,
    )
    expect(new Set(a).size).toBe(a.length)
    expect(new Set(b).size).toBe(b.length)
    expect([...new Set([...a, ...b])].sort()).toEqual([...published].sort())
    const inB = new Set(b)
    expect(a.filter((id) => inB.has(id)).length).toBeLessThanOrEqual(MAX_BATCH)
  }, 90_000)
})
