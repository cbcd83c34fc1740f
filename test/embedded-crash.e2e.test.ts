import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { afterAll, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, seedDataDir, spawnGuard } from './support/spawn-guard.ts'

const MONITORS = 20
const KILLS = 3

/** Result ids in the embedded RESULTS stream: every one of them the probe was told is stored. */
async function idsInStream(dataDir: string): Promise<Set<string>> {
  const dir = join(dataDir, 'bus', 'streams', 'RESULTS', 'segments')
  const ids = new Set<string>()
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
      if (!line) continue
      try {
        const { data } = JSON.parse(line) as { data: string }
        ids.add((JSON.parse(Buffer.from(data, 'base64').toString()) as { id: string }).id)
      } catch {
        // A torn last line: its publish never resolved.
      }
    }
  }
  return ids
}

let guard: GuardProcess | undefined
let fixture: FixtureServer | undefined
let dataDir: string | undefined
afterAll(async () => {
  await guard?.stop('SIGKILL')
  await fixture?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

it(`guard start SIGKILLed ${KILLS} times at random moments with ${MONITORS} monitors at 5 s loses no stored result`, async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'guard-crash-'))
  await seedDataDir(dataDir)
  fixture = await startFixtureServer()
  const env = {
    GUARD_DATA_DIR: dataDir,
    GUARD_IDENTITY_PORT: String(await freePort()),
    GUARD_COLLECTOR_PORT: String(await freePort()),
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
  }
  const start = async () => {
    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
  }
  await start()
  const apiKey = guard!.output().match(/api key: (guard_\S+)/)![1]!
  const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)
  const domains: string[] = []
  for (let index = 0; index < MONITORS; index++) {
    const created = await api.post('/api/domains', { url: `${fixture.url}?m=${index}`, checkInterval: 5 })
    expect(created.status).toBe(201)
    domains.push((created.body.data as { id: string }).id)
  }

  const published = new Set<string>()
  for (let kill = 0; kill < KILLS; kill++) {
    // A random moment within a check round or two: checks, publishes, batches and acks in flight.
    await new Promise((resolve) => setTimeout(resolve, 2500 + Math.random() * 5000))
    await guard!.stop('SIGKILL')
    for (const id of await idsInStream(dataDir)) published.add(id)
    await start()
  }

  const stored = async () => {
    const ids: string[] = []
    for (const id of domains) {
      const { body } = await api.get(`/api/domains/${id}/monitoring/history?range=1h&limit=1000`)
      ids.push(...(body.data as Array<{ id: string }>).map((entry) => entry.id))
    }
    return ids
  }
  const history = await eventually(
    async () => {
      const ids = await stored()
      const have = new Set(ids)
      return [...published].every((id) => have.has(id)) ? ids : undefined
    },
    'every published result in history',
    60_000,
    1000,
  )
  const lost = [...published].filter((id) => !history.includes(id))
  const duplicated = history.length - new Set(history).size
  console.info(
    JSON.stringify({
      embeddedCrash: {
        kills: KILLS,
        monitors: MONITORS,
        checked: fixture.hits(),
        published: published.size,
        stored: history.length,
        lost: lost.length,
        duplicated,
      },
    }),
  )
  expect(published.size).toBeGreaterThanOrEqual(MONITORS * 2)
  expect(lost).toEqual([])
  expect(duplicated).toBe(0)
}, 300_000)
