import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startNatsServer, startPostgres } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../collector/src/test-support.ts'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const nats = await startNatsServer()
const postgres = await startPostgres()

interface Incident {
  id: string
  monitorId: string
  status: string
}

interface IncidentDetail extends Incident {
  dependentsAffected: {
    count: number
    monitors: Array<{ monitorId: string; parentId: string; reason: string; endedAt: string | null }>
  }
}

interface Monitor {
  status: string
  dependsOn?: string[]
  suppressedBy?: { monitorId: string; incidentId: string | null } | null
}

/**
 * A reverse proxy on a fixed port: `/health` answers 200, `/svc/<n>` relays backend n (502 when it
 * does not answer). Stopped, every path behind it fails with it, as a real gateway's would.
 */
async function startGateway(backends: FixtureServer[]) {
  const port = await freePort()
  let server: Server | undefined
  const listen = async () => {
    server = createServer(async (request, response) => {
      const backend = /^\/svc\/(\d+)$/.exec(request.url ?? '')
      if (!backend) {
        response.writeHead(request.url === '/health' ? 200 : 404).end('gateway')
        return
      }
      try {
        const answer = await fetch(backends[Number(backend[1])]!.url, { signal: AbortSignal.timeout(2000) })
        response.writeHead(answer.status, { 'content-type': 'text/html' }).end(await answer.text())
      } catch {
        response.writeHead(502).end('bad gateway')
      }
    })
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
    expect((server.address() as AddressInfo).port).toBe(port)
  }
  await listen()
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    start: listen,
    stop: () =>
      new Promise<void>((resolve) => {
        server!.closeAllConnections()
        server!.close(() => resolve())
      }),
  }
}

/**
 * Issue 30 with real probes at two locations: a gateway and five services behind it, each a domain
 * checked every 5 s from fra and iad; the probes' results reach the collector over NATS in whatever
 * order their checks happen to run.
 */
describe.skipIf(!nats || !postgres)('dependencies end to end with two probe locations', () => {
  const processes: GuardProcess[] = []
  const dirs: string[] = []
  const backends: FixtureServer[] = []
  let gateway: Awaited<ReturnType<typeof startGateway>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let api: ReturnType<typeof collectorClient>
  let gatewayId: string
  const serviceIds: string[] = []

  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `guard-${name}-`))
    dirs.push(dir)
    return dir
  }
  const start = (args: string[], env: Record<string, string>) => {
    const child = spawnGuard(args, env)
    processes.push(child)
    return child
  }
  const incidents = async () =>
    ((await api.get('/api/incidents?limit=100')).body.data as Incident[]).filter((incident) =>
      [gatewayId, ...serviceIds].includes(incident.monitorId),
    )
  const monitor = async (id: string) => (await api.get(`/api/domains/${id}`)).body.data as Monitor
  const webhooks = () =>
    receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: { incidentId: string } })
  const allUp = async () => {
    for (const id of [gatewayId, ...serviceIds]) if ((await monitor(id)).status !== 'up') return undefined
    return true
  }

  beforeAll(async () => {
    for (let index = 0; index < 5; index += 1) backends.push(await startFixtureServer())
    gateway = await startGateway(backends)
    receiver = await startReceiver()
    const port = await freePort()
    const collector = start(['collector'], {
      NATS_URL: nats!.url,
      DATABASE_URL: postgres!.url,
      GUARD_DATA_DIR: await tempDir('collector'),
      GUARD_COLLECTOR_PORT: String(port),
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_DELIVERY_BASE_DELAY_MS: '100',
      GUARD_DELIVERY_POLL_MS: '100',
      GUARD_NOTIFY_FLAP_DELAY_SECONDS: '0',
      GUARD_INCIDENT_FLAP_WINDOW_SECONDS: '0',
    })
    await collector.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
    api = collectorClient(`http://127.0.0.1:${port}`, collector.output().match(/api key: (guard_\S+)/)![1]!)
    for (const location of ['fra', 'iad']) {
      const probe = start(['probe', '--location', location], {
        NATS_URL: nats!.url,
        GUARD_DATA_DIR: await tempDir(`probe-${location}`),
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
      })
      await probe.waitFor(new RegExp(`probe: ${location}`), 60_000)
    }
    expect((await api.put('/api/notifications/settings', { webhookUrl: receiver.url })).status).toBe(200)
    const domain = async (name: string, url: string) => {
      const created = await api.post('/api/domains', { url, name, checkInterval: 5 })
      expect(created.status).toBe(201)
      return (created.body.data as { id: string }).id
    }
    gatewayId = await domain('Gateway', gateway.url('/health'))
    for (let index = 0; index < 5; index += 1) {
      const id = await domain(`Service ${index + 1}`, gateway.url(`/svc/${index}`))
      const saved = await api.put(`/api/monitors/${id}/dependencies`, { dependsOn: [gatewayId] })
      expect(saved.status).toBe(200)
      serviceIds.push(id)
    }
    await eventually(allUp, 'the gateway and its five services up', 45_000)
  }, 240_000)

  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop('SIGKILL')))
    await gateway?.stop()
    await Promise.all(backends.map((backend) => backend.close()))
    await receiver?.close()
    await nats?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('stopping the gateway opens one incident and one notification; its five services are suppressed under it', async () => {
    await gateway.stop()
    const incident = await eventually(
      async () => {
        const open = (await incidents()).find((row) => row.monitorId === gatewayId && row.status === 'open')
        if (!open) return undefined
        for (const id of serviceIds) {
          const service = await monitor(id)
          if (service.status !== 'down' || service.suppressedBy?.incidentId !== open.id) return undefined
        }
        return open
      },
      "the gateway's incident and its five services down, counted under it",
      45_000,
    )
    expect(await incidents()).toEqual([incident])
    for (const id of serviceIds) {
      expect(await monitor(id)).toMatchObject({
        status: 'down',
        dependsOn: [gatewayId],
        suppressedBy: { monitorId: gatewayId, incidentId: incident.id },
      })
    }
    const detail = (await api.get(`/api/incidents/${incident.id}`)).body.data as IncidentDetail
    expect(detail.dependentsAffected.count).toBe(5)
    expect(detail.dependentsAffected.monitors.map((m) => m.monitorId).sort()).toEqual([...serviceIds].sort())
    for (const affected of detail.dependentsAffected.monitors) {
      expect(affected).toMatchObject({ parentId: gatewayId, reason: 'Gateway is down', endedAt: null })
    }
    await eventually(async () => (webhooks().length > 0 ? true : undefined), 'the webhook of the opening', 15_000)
    const deliveries = (await api.get('/api/notifications/deliveries?limit=100')).body.data as unknown[]
    expect(deliveries).toHaveLength(1)
    expect(webhooks()).toEqual([
      expect.objectContaining({ type: 'incident.opened', data: expect.objectContaining({ incidentId: incident.id }) }),
    ])
  }, 60_000)

  it('restarting the gateway resolves its incident and its services come up on their own checks, none ever alerting', async () => {
    await gateway.start()
    // A service is up as soon as its result is stored; its suppression ends when the incident engine takes its monitor.up.
    const unsuppressed = async () => {
      for (const id of serviceIds) if ((await monitor(id)).suppressedBy !== null) return undefined
      return true
    }
    await eventually(
      async () =>
        (await allUp()) &&
        (await incidents()).every((incident) => incident.status === 'resolved') &&
        (await unsuppressed())
          ? true
          : undefined,
      'the gateway incident resolved and every service up, its suppression ended',
      45_000,
    )
    const [incident, ...others] = await incidents()
    expect(others).toEqual([])
    expect(incident!.monitorId).toBe(gatewayId)
    const detail = (await api.get(`/api/incidents/${incident!.id}`)).body.data as IncidentDetail
    expect(detail.dependentsAffected.monitors.every((affected) => affected.endedAt !== null)).toBe(true)
    await eventually(async () => (webhooks().length >= 2 ? true : undefined), 'the webhook of the resolution', 15_000)
    expect(webhooks().map((hook) => [hook.type, hook.data.incidentId])).toEqual([
      ['incident.opened', incident!.id],
      ['incident.resolved', incident!.id],
    ])
  }, 60_000)

  it('a service failing on its own while the gateway is up opens its own incident and notifies', async () => {
    const [failing] = serviceIds
    backends[0]!.setStatus(503)
    const incident = await eventually(
      async () => (await incidents()).find((row) => row.monitorId === failing && row.status === 'open'),
      "the failing service's own incident",
      45_000,
    )
    expect((await monitor(failing!)).suppressedBy).toBeNull()
    expect((await monitor(gatewayId)).status).toBe('up')
    const opened = await eventually(
      async () => webhooks().find((hook) => hook.data.incidentId === incident.id),
      "the webhook of the service's incident",
      15_000,
    )
    expect(opened.type).toBe('incident.opened')
    expect((await incidents()).filter((row) => row.status === 'open')).toEqual([incident])
    backends[0]!.setStatus(200)
    await eventually(
      async () => ((await incidents()).find((row) => row.id === incident.id)?.status === 'resolved' ? true : undefined),
      "the service's incident resolved",
      45_000,
    )
  }, 90_000)

  it('refuses a cycle: the gateway cannot depend on a service behind it', async () => {
    const cycle = await api.put(`/api/monitors/${gatewayId}/dependencies`, { dependsOn: [serviceIds[2]] })
    expect(cycle.status).toBe(400)
    expect(cycle.body.message).toMatch(/^dependsOn: /)
    expect(cycle.body.message).toContain(serviceIds[2])
    expect(
      ((await api.get(`/api/monitors/${gatewayId}/dependencies`)).body.data as { dependsOn: string[] }).dependsOn,
    ).toEqual([])
  })
})
