import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../collector/src/test-support.ts'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type GuardProcess, seedDataDir, spawnGuard } from './support/spawn-guard.ts'

interface Heartbeat {
  id: string
  status: string
  pingUrl: string
  lastError?: { kind: string; message: string }
}
interface Incident {
  monitorId: string
  status: string
}

/**
 * A heartbeat monitor in the real embedded Guard (HTTP → bus → consumer → results → state →
 * incidents → webhook), every 5 s with 2 s grace and the deadline job ticking every second.
 */
describe('heartbeat monitors (embedded Guard)', () => {
  let root: string
  let guard: GuardProcess
  let base: string
  let api: ReturnType<typeof collectorClient>
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-heartbeats-'))
    await seedDataDir(join(root, 'data'))
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    guard = spawnGuard(['start'], {
      GUARD_DATA_DIR: join(root, 'data'),
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(port),
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_HEARTBEAT_DEADLINE_CRON: '* * * * * *',
    })
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
    api = collectorClient(base, guard.output().match(/api key: (guard_\S+)/)![1]!)
    receiver = await startReceiver()
    expect((await api.put('/api/notifications/settings', { webhookUrl: receiver.url })).status).toBe(200)
  }, 130_000)

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    await receiver?.close()
    await rm(root, { recursive: true, force: true })
  })

  it('stays up while pinged; missed, failed, exit code and too long take it down; a success resolves the incident', async () => {
    const created = await api.post('/api/heartbeats', { name: 'Backup', every: 5, grace: 2, maxDuration: 3 })
    expect(created.status).toBe(201)
    const { id, pingUrl } = created.body.data as Heartbeat
    const ping = async (suffix = '') => {
      const response = await fetch(`${base}${new URL(pingUrl).pathname}${suffix}`, { method: 'POST' })
      expect(response.status).toBe(200)
    }
    const heartbeat = async () => (await api.get(`/api/heartbeats/${id}`)).body.data as Heartbeat
    const settles = (status: string, kind?: string, timeoutMs = 15_000) =>
      eventually(
        async () => {
          const current = await heartbeat()
          return current.status === status && (!kind || current.lastError?.kind === kind) ? current : undefined
        },
        `${status} ${kind ?? ''}`,
        timeoutMs,
        200,
      )
    const incidents = async () =>
      ((await api.get('/api/incidents')).body.data as Incident[]).filter((incident) => incident.monitorId === id)

    // Pinged every second for 8 s, longer than period plus grace: it never leaves up.
    await ping()
    await settles('up')
    for (let second = 0; second < 8; second += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      await ping()
      expect((await heartbeat()).status).toBe('up')
    }

    // Silence: down within period + grace + one tick, an incident and a webhook naming the reason.
    const stopped = Date.now()
    const missed = await settles('down', 'missed')
    expect(Date.now() - stopped).toBeLessThan(5000 + 2000 + 1000 + 3000)
    expect(missed.lastError?.message).toContain('No ping by')
    const [incident] = await eventually(
      async () => ((await incidents()).length > 0 ? incidents() : undefined),
      'an incident',
    )
    expect(incident).toMatchObject({ status: 'open' })
    const opened = await eventually(
      async () => receiver.received.find((request) => request.body.includes('incident.opened')),
      'the incident.opened webhook',
    )
    expect(opened.body).toContain('missed')

    await ping()
    await settles('up')
    await eventually(async () => ((await incidents())[0]?.status === 'resolved' ? true : undefined), 'resolved')

    await ping('/fail')
    await settles('down', 'failed')
    await ping()
    await settles('up')
    await ping('/3')
    expect((await settles('down', 'exit_code')).lastError?.message).toContain('code 3')
    await ping('/0')
    await settles('up')

    // A run that starts and never ends is too long after 3 s, before its 5 s + 2 s deadline.
    await ping('/start?rid=r1')
    await settles('down', 'too_long', 6000)
    await ping('?rid=r1')
    await settles('up')
    await eventually(
      async () => ((await incidents()).every((entry) => entry.status === 'resolved') ? true : undefined),
      'every incident resolved',
    )
    const log = (await api.get(`/api/heartbeats/${id}/pings?limit=5`)).body.data as Array<{ type: string }>
    expect(log[0]?.type).toBe('success')
  }, 120_000)

  it('goes down without an incident inside a maintenance window', async () => {
    const created = await api.post('/api/heartbeats', { name: 'Quiet', every: 5, grace: 1 })
    const { id, pingUrl } = created.body.data as Heartbeat
    const window = await api.post('/api/maintenance-windows', {
      title: 'Backup server upgrade',
      monitorId: id,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    })
    expect(window.status).toBe(201)
    expect((await fetch(`${base}${new URL(pingUrl).pathname}`)).status).toBe(200)
    await eventually(
      async () =>
        ((await api.get(`/api/heartbeats/${id}`)).body.data as Heartbeat).status === 'down' ? true : undefined,
      'down',
      15_000,
      200,
    )
    // The incident engine has had the down event by the time the state shows it; give it a moment more.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const incidents = (await api.get('/api/incidents')).body.data as Incident[]
    expect(incidents.filter((incident) => incident.monitorId === id)).toEqual([])
  }, 60_000)
})
