import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, runGuard, spawnGuard } from './support/spawn-guard.ts'

async function guardEnv(dataDir: string): Promise<Record<string, string>> {
  const identityPort = String(await freePort())
  return {
    GUARD_DATA_DIR: dataDir,
    GUARD_IDENTITY_PORT: identityPort,
    GUARD_COLLECTOR_PORT: String(await freePort()),
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    // Counts read right after a write must not come from the read cache.
    GUARD_READ_CACHE_TTL_MS: '0',
  }
}

describe('guard backup and guard restore (embedded mode)', () => {
  let root: string
  let fixture: FixtureServer
  let original: GuardProcess | undefined
  let restored: GuardProcess | undefined

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-backup-'))
    fixture = await startFixtureServer()
  })

  afterAll(async () => {
    await original?.stop('SIGKILL')
    await restored?.stop('SIGKILL')
    await fixture.close()
    await rm(root, { recursive: true, force: true })
  })

  it('backs up a running Guard; the restored one has every monitor, result, incident, key and client, and checks again', async () => {
    const env = await guardEnv(join(root, 'data'))
    const identityUrl = `http://127.0.0.1:${env.GUARD_IDENTITY_PORT}`
    original = spawnGuard(['start'], env)
    const apiKey = (await original.waitFor(/api key: (guard_\S+)/, 240_000))[1] as string
    await original.waitFor(/collector: http/, 30_000)
    const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)

    const created = await api.post('/api/domains', { url: fixture.url, name: 'Fixture', checkInterval: 5 })
    expect(created.status).toBe(201)
    const id = (created.body.data as { id: string }).id
    const countResults = async (client: typeof api) =>
      ((await client.get(`/api/domains/${id}/monitoring/history?limit=1000`)).body.data as unknown[]).length
    await eventually(async () => ((await countResults(api)) >= 2 ? true : undefined), 'two results', 30_000)
    const incident = await api.post('/api/incidents', { title: 'Kept across the restore' })
    expect(incident.status).toBe(201)
    const incidentId = (incident.body.data as { id: string }).id
    const client = await runGuard(
      ['identity', 'clients', 'create', '--name', 'Kept', '--redirect-uri', 'http://127.0.0.1:9/cb', '--public'],
      { ...env, GUARD_IDENTITY_URL: identityUrl },
    )
    expect(client.stderr).toBe('')
    const clientId = JSON.parse(client.stdout).client_id as string

    // Paused, so the count read before the backup is the count it holds.
    expect((await api.put(`/api/domains/${id}`, { enabled: false })).status).toBe(200)
    let settled = -1
    await eventually(
      async () => {
        const count = await countResults(api)
        const same = count === settled
        settled = count
        return same ? true : undefined
      },
      'no more results after the pause',
      20_000,
      6_000,
    )

    const backupDir = join(root, 'backup')
    const backup = await runGuard(['backup', '--to', backupDir], env, 60_000)
    expect(backup.stderr).toBe('')
    expect(backup.stdout).toMatch(/^backup written to .*backup \(\d+ files, [\d.]+ MB, [\d.]+ s\)/)
    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8'))
    expect(manifest.migrations.postgres).toContainEqual({ service: 'identity', name: expect.any(String) })
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining(['pglite.tar.gz', 'chdb/check_results.native.zst', 'files/secret.key']),
    )
    expect(await countResults(api)).toBe(settled)
    await original.stop('SIGTERM')

    const occupied = join(root, 'occupied')
    await mkdir(occupied)
    await writeFile(join(occupied, 'something'), 'x')
    const refused = await runGuard(['restore', '--from', backupDir], { ...env, GUARD_DATA_DIR: occupied })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('is not empty: a backup is restored into a new or empty directory only')

    const restoredEnv = await guardEnv(join(root, 'restored'))
    const restore = await runGuard(['restore', '--from', backupDir], restoredEnv, 60_000)
    expect(restore.stderr).toBe('')
    expect(restore.code).toBe(0)

    restored = spawnGuard(['start'], restoredEnv)
    await restored.waitFor(/collector: http/, 240_000)
    // The key printed by the first start still opens the API: its hash came back with PGlite.
    const after = collectorClient(`http://127.0.0.1:${restoredEnv.GUARD_COLLECTOR_PORT}`, apiKey)
    expect((await after.get(`/api/domains/${id}`)).body.data).toMatchObject({ id, name: 'Fixture', enabled: false })
    expect(await countResults(after)).toBe(settled)
    const incidents = (await after.get('/api/incidents')).body.data as Array<{ id: string }>
    expect(incidents.map((entry) => entry.id)).toContain(incidentId)
    const clients = await runGuard(['identity', 'clients', 'list'], {
      ...restoredEnv,
      GUARD_IDENTITY_URL: `http://127.0.0.1:${restoredEnv.GUARD_IDENTITY_PORT}`,
    })
    expect(clients.stdout).toContain(clientId)

    expect((await after.put(`/api/domains/${id}`, { enabled: true })).status).toBe(200)
    await eventually(async () => ((await countResults(after)) > settled ? true : undefined), 'a new result', 30_000)
    // Two first starts: on a loaded machine each takes longer than the default.
  }, 540_000)
})
