import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, runGuard, spawnGuard } from './support/spawn-guard.ts'

/** Made by bin/make-upgrade-fixture.ts from the previous release (test/fixtures/upgrade/README.md). */
const fixtureFolder = fileURLToPath(new URL('./fixtures/upgrade/', import.meta.url))

interface Made {
  commit: string
  apiKey: string
  readKey: string
  clientId: string
  /** Results of Shop and Blog, in that order, when the old Guard stopped with every check paused. */
  results: [number, number]
}

type Named = { id: string; name: string }

describe("upgrading the previous release's data directory in place (embedded mode)", () => {
  let root: string
  let made: Made
  let fixture: FixtureServer
  let guard: GuardProcess | undefined

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-upgrade-'))
    made = JSON.parse(await readFile(join(fixtureFolder, 'fixture.json'), 'utf8')) as Made
    fixture = await startFixtureServer()
  })

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    await fixture.close()
    await rm(root, { recursive: true, force: true })
  })

  it('migrates forward, keeps every monitor, result, incident, key, client and subscriber, and checks again', async () => {
    const dataDir = join(root, 'data')
    await mkdir(dataDir, { mode: 0o700 })
    execFileSync('tar', ['-xJf', join(fixtureFolder, 'data-dir.tar.xz'), '-C', dataDir])
    const env = {
      GUARD_DATA_DIR: dataDir,
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(await freePort()),
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_READ_CACHE_TTL_MS: '0',
    }
    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http/, 240_000)
    // Not a first start: nothing new is created, the old credentials stand.
    expect(guard.output()).not.toMatch(/api key:/)
    const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, made.apiKey)
    const list = async <T extends Named>(path: string) => (await api.get(path)).body.data as T[]
    const named = <T extends Named>(items: T[], name: string) => {
      const item = items.find((entry) => entry.name === name)
      expect(item, name).toBeDefined()
      return item as T
    }

    const domains = await list<Named & { tags: string[]; enabled: boolean }>('/api/domains')
    expect(domains.map((domain) => domain.name).sort()).toEqual(['Blog', 'Shop'])
    const shop = named(domains, 'Shop')
    const blog = named(domains, 'Blog')
    expect(shop).toMatchObject({ enabled: false, tags: ['env:prod', 'team:web'] })
    const history = async (id: string) =>
      ((await api.get(`/api/domains/${id}/monitoring/history?limit=1000`)).body.data as unknown[]).length
    expect([await history(shop.id), await history(blog.id)]).toEqual(made.results)

    const database = named(await list('/api/services'), 'Database')
    const nightly = named(await list('/api/heartbeats'), 'Nightly backup')
    const pings = (await api.get(`/api/heartbeats/${nightly.id}/pings`)).body.data as unknown[]
    expect(pings).toHaveLength(3)

    expect((await api.get('/api/tags')).body.data).toContainEqual(
      expect.objectContaining({ tag: 'env:prod', color: '#2f855a', colorSet: true, total: 2 }),
    )
    const group = named(await list<Named & { memberCount: number }>('/api/groups'), 'Shop')
    expect(group.memberCount).toBe(2)
    expect((await api.get(`/api/monitors/${shop.id}/dependencies`)).body.data).toMatchObject({
      dependsOn: [database.id],
    })
    const slo = named(await list<Named & { objective: number }>('/api/slos'), 'Shop availability')
    expect(slo.objective).toBe(99.9)
    const page = named(await list('/api/status-pages'), 'Acme status')
    const subscribers = (await api.get(`/api/status-pages/${page.id}/subscribers`)).body.data as Array<{
      target: string
      confirmed: boolean
    }>
    expect(subscribers.map(({ target, confirmed }) => `${target} ${confirmed}`).sort()).toEqual([
      'ann@example.org true',
      'bob@example.org true',
    ])
    const incidents = (await api.get('/api/incidents')).body.data as Array<{ title: string }>
    // The third one the old Guard opened itself, on the heartbeat's `/fail` ping.
    expect(incidents.map((incident) => incident.title).sort()).toEqual([
      'Checkout slow',
      'Nightly backup is down',
      'Planned database upgrade',
    ])

    // Keys are stored as hashes: the old ones still open the API, the read-only one only for reading.
    const reader = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, made.readKey)
    expect((await reader.get('/api/domains')).status).toBe(200)
    expect((await reader.post('/api/incidents', { title: 'not allowed' })).status).toBe(403)
    const clients = await runGuard(['identity', 'clients', 'list'], {
      ...env,
      GUARD_IDENTITY_URL: `http://127.0.0.1:${env.GUARD_IDENTITY_PORT}`,
    })
    expect(clients.stdout).toContain(made.clientId)

    // The old target is gone with the old run: point Shop at this one and resume its checks.
    expect((await api.put(`/api/domains/${shop.id}`, { url: fixture.url, enabled: true })).status).toBe(200)
    await eventually(
      async () => ((await history(shop.id)) > made.results[0] ? true : undefined),
      'a result from the upgraded Guard',
      60_000,
    )
    expect(await guard.stop('SIGTERM')).toBe(0)
    // One start of a migrated PGlite and chDB: on a loaded machine it takes minutes.
  }, 400_000)
})
