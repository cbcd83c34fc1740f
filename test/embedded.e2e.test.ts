import { lstat, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../collector/src/test-support.ts'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

/** Each entry under `root` whose mode is not `0700` (directories) or `0600` (files), with its mode. */
async function openEntries(root: string): Promise<string[]> {
  const open: string[] = []
  for (const name of await readdir(root, { recursive: true })) {
    // Files come and go while Guard runs (segments, parts, temporary files).
    const entry = await lstat(join(root, name)).catch(() => undefined)
    if (!entry || entry.isSymbolicLink()) continue
    const mode = entry.mode & 0o777
    if (mode !== (entry.isDirectory() ? 0o700 : 0o600)) open.push(`${name} ${mode.toString(8)}`)
  }
  return open
}

describe('embedded mode (npm start)', () => {
  let root: string
  let dataDir: string
  let fixture: FixtureServer
  let env: Record<string, string>
  let guard: GuardProcess
  // The shell's usual umask: Guard must not rely on a stricter one.
  let umask: number

  beforeAll(async () => {
    umask = process.umask(0o022)
    root = await mkdtemp(join(tmpdir(), 'guard-embedded-'))
    // Guard creates it: its mode is Guard's doing.
    dataDir = join(root, 'data')
    fixture = await startFixtureServer()
    env = {
      GUARD_DATA_DIR: dataDir,
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(await freePort()),
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
    }
  })

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    await fixture.close()
    await rm(root, { recursive: true, force: true })
    process.umask(umask)
  })

  it('prints the console first, both addresses and the credentials it created, saved with mode 0600', async () => {
    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
    const output = guard.output()
    const consoleUrl = `http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}/`
    expect(output).toContain(
      [
        `console: ${consoleUrl} (sign in as admin@guard.local)`,
        `identity: http://127.0.0.1:${env.GUARD_IDENTITY_PORT}`,
        `collector: http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`,
      ].join('\n'),
    )
    // Identity's address, opened in a browser, leads to that console; API clients keep their JSON 404.
    const identityRoot = `http://127.0.0.1:${env.GUARD_IDENTITY_PORT}/`
    const browser = await fetch(identityRoot, { headers: { accept: 'text/html' }, redirect: 'manual' })
    expect([browser.status, browser.headers.get('location')]).toEqual([302, consoleUrl])
    expect((await fetch(identityRoot, { headers: { accept: 'application/json' } })).status).toBe(404)
    expect(output).toMatch(/api key: guard_\S+/)
    expect(output).toMatch(/admin: admin@guard\.local \/ \S+/)
    const mode = (await stat(join(dataDir, 'credentials.json'))).mode & 0o777
    expect(mode).toBe(0o600)
    // As long as the wait above: a first start on a loaded machine takes longer than the default.
  }, 130_000)

  it('checks a new domain from the local probe and serves its history and locations', async () => {
    const apiKey = guard.output().match(/api key: (guard_\S+)/)![1]!
    const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)

    expect((await fetch(`http://127.0.0.1:${env.GUARD_IDENTITY_PORT}/api/health`)).status).toBe(200)
    expect(
      (await collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, 'nope').get('/api/domains')).status,
    ).toBe(401)

    const created = await api.post('/api/domains', { url: fixture.url, name: 'Fixture', checkInterval: 5 })
    expect(created.status).toBe(201)
    const id = (created.body.data as { id: string }).id

    const history = await eventually(
      async () => {
        const { body } = await api.get(`/api/domains/${id}/monitoring/history`)
        const entries = body.data as Array<{ status: string; statusCode: number }>
        return entries.length > 0 ? entries : undefined
      },
      'a first check result',
      30_000,
    )
    expect(history[0]).toMatchObject({ domainId: id, status: 'up', statusCode: 200 })

    const locations = await api.get(`/api/domains/${id}/monitoring/locations`)
    expect(Object.keys(locations.body.data as object)).toEqual(['local'])

    const detail = await api.get(`/api/domains/${id}`)
    expect(detail.body.data).toMatchObject({ id, status: 'up', checkInterval: 5, enabled: true })
  }, 60_000)

  it('opens one incident when the local probe sees the target fail, notifies once, resolves it on recovery', async () => {
    const apiKey = guard.output().match(/api key: (guard_\S+)/)![1]!
    const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)
    const receiver = await startReceiver()
    expect((await api.put('/api/notifications/settings', { webhookUrl: receiver.url })).status).toBe(200)
    const target = await startFixtureServer()
    const id = (
      (await api.post('/api/domains', { url: target.url, name: 'Target', checkInterval: 5 })).body.data as {
        id: string
      }
    ).id
    const incidentsOf = async () =>
      (
        (await api.get('/api/incidents')).body.data as Array<{ monitorId: string; status: string; severity: string }>
      ).filter((incident) => incident.monitorId === id)
    await eventually(
      async () => ((await api.get(`/api/domains/${id}`)).body.data as { status: string }).status === 'up' || undefined,
      'up',
      30_000,
    )
    target.setStatus(503)
    const [incident] = await eventually(
      async () => ((await incidentsOf()).length > 0 ? incidentsOf() : undefined),
      'an incident',
      45_000,
    )
    expect(incident).toMatchObject({ status: 'open', severity: 'critical' })
    target.setStatus(200)
    await eventually(
      async () => ((await incidentsOf())[0]?.status === 'resolved' ? true : undefined),
      'recovery',
      45_000,
    )
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 'two webhooks', 30_000)
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual([
      'incident.opened',
      'incident.resolved',
    ])
    expect(await incidentsOf()).toHaveLength(1)
    await target.close()
    await receiver.close()
  }, 150_000)

  it('stops cleanly on SIGTERM and keeps its data across a restart', async () => {
    const apiKey = guard.output().match(/api key: (guard_\S+)/)![1]!
    expect(await guard.stop('SIGTERM')).toBe(0)

    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
    expect(guard.output()).not.toMatch(/api key:/)
    const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)
    const list = await api.get('/api/domains')
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([
      expect.objectContaining({ name: 'Target' }),
      expect.objectContaining({ name: 'Fixture', status: 'up' }),
    ])
  }, 120_000)

  it("keeps its data directory its own: 0700, every file 0600, the probe's credentials sealed", async () => {
    const { apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string }
    const api = collectorClient(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`, apiKey)
    const password = 'embedded-pw-Vb39-sealed'
    const created = await api.post('/api/domains', {
      url: `${fixture.url}/private`,
      name: 'Behind basic auth',
      checkInterval: 5,
      authType: 'basic',
      credentials: { username: 'ann', password },
    })
    expect(created.status).toBe(201)
    const id = (created.body.data as { id: string }).id
    // The probe keeps its schedule on disk within a second of a change.
    const cache = join(dataDir, 'probe-local', 'monitors.json')
    const cached = await eventually(
      async () => {
        const text = await readFile(cache, 'utf8').catch(() => '')
        return text.includes(id) ? text : undefined
      },
      "the probe's cache to hold the new monitor",
      15_000,
    )
    expect(cached).not.toContain(password)
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700)
    expect(await openEntries(dataDir)).toEqual([])
  }, 60_000)
})
