import { type CheckResult, DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import { resultFor } from '../../routes/test-helpers.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  eventsSettled,
  injectAsUser,
  startReactionsForTest,
  startReceiver,
  userCaller,
  waitUntil,
} from '../../test-support.ts'
import { applyResultsToState } from '../monitor-state/apply-results.ts'
import { releaseOrphanedSuppressions } from './release.ts'

const ORG = DEFAULT_ORGANIZATION.id
const OTHER = 'org-other'

interface Incident {
  id: string
  monitorId: string
  status: string
  dependentsAffected: {
    count: number
    monitors: Array<{ monitorId: string; parentId: string; reason: string; endedAt: string | null }>
  }
}

describe('dependencies that silence the noise', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, user = 'alice') =>
    injectAsUser(app, user, method, url, payload)
  const service = async (name: string, user = 'alice') => {
    const created = await call(
      'POST',
      '/api/services',
      { name, protocol: 'tcp', protocolConfig: { host: `${name}.example`, port: 443 } },
      user,
    )
    expect(created.status).toBe(201)
    return created.body.data.id as string
  }
  /** One batch of results, `status` for each monitor `secondsAgo` seconds ago, then every reaction. */
  const feed = async (ids: string[], statuses: CheckResult['status'][], secondsAgo: number) => {
    const results = statuses.flatMap((status, index) =>
      ids.map((id) => resultFor(id, ORG, 'fra', secondsAgo - index, status, 10)),
    )
    await applyResultsToState(harness.ctx.sql, results)
    await eventsSettled(harness.ctx)
  }
  const incidentsOf = async (ids: string[]) =>
    ((await call('GET', '/api/incidents?limit=100')).body.data as Incident[]).filter((incident) =>
      ids.includes(incident.monitorId),
    )
  const dependencies = async (id: string) => (await call('GET', `/api/monitors/${id}/dependencies`)).body.data
  const queuedDeliveries = async () =>
    (
      await harness.ctx.sql.query<{ event_type: string; incident_id: string }>(
        'SELECT event_type, incident_id FROM monitoring.notification_deliveries WHERE organization_id = $1',
        [ORG],
      )
    ).rows

  beforeAll(async () => {
    receiver = await startReceiver([200])
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_DELIVERY_BASE_DELAY_MS: '50',
      GUARD_DELIVERY_POLL_MS: '50',
      GUARD_RATE_LIMIT_READ: '100000',
      GUARD_RATE_LIMIT_WRITE: '100000',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        mallory: userCaller('mallory', [OTHER]),
      }),
    })
    reactions = await startReactionsForTest(harness.ctx)
    const channel = await call('POST', '/api/notification-channels', {
      name: 'on call',
      provider: 'webhook',
      config: { url: receiver.url },
    })
    expect(channel.status).toBe(201)
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
    await receiver.close()
  })

  it('a gateway down opens one incident and one notification; its five dependents are suppressed under it and recover on their own checks', async () => {
    const gateway = await service('gateway')
    const services = await Promise.all([1, 2, 3, 4, 5].map((n) => service(`backend-${n}`)))
    for (const id of services) {
      const saved = await call('PUT', `/api/monitors/${id}/dependencies`, { dependsOn: [gateway] })
      expect(saved.status).toBe(200)
      expect(saved.body.data).toMatchObject({ dependsOn: [gateway], dependents: [], suppressedBy: null })
    }
    expect(await dependencies(gateway)).toMatchObject({ dependsOn: [], dependentsCount: 5 })
    const parent = (await call('GET', `/api/services/${gateway}`)).body.data
    expect(parent).toMatchObject({ dependentsCount: 5 })
    expect(parent).not.toHaveProperty('dependsOn')
    expect(parent).not.toHaveProperty('suppressedBy')
    await feed([gateway, ...services], ['up'], 300)

    // The dependents' results come first in the batch: their failures are handled before the gateway's
    // incident exists, and are linked to it when it opens.
    await feed([...services, gateway], ['down', 'down'], 200)
    const [incident, ...others] = await incidentsOf([gateway, ...services])
    expect(others).toEqual([])
    expect(incident).toMatchObject({ monitorId: gateway, status: 'open' })
    for (const id of services) {
      expect(await dependencies(id)).toMatchObject({ suppressedBy: { monitorId: gateway, incidentId: incident!.id } })
    }
    expect((await call('GET', `/api/services/${services[0]}`)).body.data).toMatchObject({
      status: 'down',
      dependsOn: [gateway],
      suppressedBy: { monitorId: gateway, incidentId: incident!.id },
    })
    const detail = (await call('GET', `/api/incidents/${incident!.id}`)).body.data as Incident
    expect(detail.dependentsAffected.count).toBe(5)
    expect(detail.dependentsAffected.monitors.map((m) => m.monitorId).sort()).toEqual([...services].sort())
    expect(detail.dependentsAffected.monitors[0]).toMatchObject({
      parentId: gateway,
      reason: 'gateway is down',
      endedAt: null,
    })
    expect(await queuedDeliveries()).toEqual([{ event_type: 'incident.opened', incident_id: incident!.id }])
    await waitUntil(() => receiver.received.length === 1, 'the gateway incident on the webhook channel')
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'incident.opened' })

    await feed([gateway], ['up'], 100)
    await feed(services, ['up'], 90)
    expect((await incidentsOf([gateway, ...services])).map((i) => i.status)).toEqual(['resolved'])
    for (const id of services) expect((await dependencies(id)).suppressedBy).toBeNull()
    const after = (await call('GET', `/api/incidents/${incident!.id}`)).body.data as Incident
    expect(after.dependentsAffected.monitors.every((m) => m.endedAt !== null)).toBe(true)
    expect((await queuedDeliveries()).map((d) => d.event_type).sort()).toEqual(['incident.opened', 'incident.resolved'])
  })

  it('a dependent failing while its parent is up opens its own incident', async () => {
    const gateway = await service('edge')
    const backend = await service('api')
    await call('PUT', `/api/monitors/${backend}/dependencies`, { dependsOn: [gateway] })
    await feed([gateway, backend], ['up'], 300)
    await feed([backend], ['down', 'down'], 200)
    const [incident, ...others] = await incidentsOf([gateway, backend])
    expect(others).toEqual([])
    expect(incident).toMatchObject({ monitorId: backend, status: 'open' })
    expect((await dependencies(backend)).suppressedBy).toBeNull()
  })

  it('a dependent still down on its own checks once its parent is up again opens its own incident', async () => {
    const gateway = await service('lb')
    const backend = await service('orders')
    await call('PUT', `/api/monitors/${backend}/dependencies`, { dependsOn: [gateway] })
    await feed([gateway, backend], ['up'], 1000)
    await feed([gateway, backend], ['down', 'down'], 900)
    await feed([gateway], ['up'], 800)
    // Checked, still down, but not yet `failure_threshold` intervals after the gateway came back.
    await feed([backend], ['down'], 790)
    expect(await releaseOrphanedSuppressions(harness.ctx)).toEqual([])
    await feed([backend], ['down'], 500)
    expect(await releaseOrphanedSuppressions(harness.ctx)).toEqual([backend])
    await eventsSettled(harness.ctx)
    const incidents = await incidentsOf([gateway, backend])
    expect(incidents.map((i) => [i.monitorId, i.status]).sort()).toEqual(
      [
        [gateway, 'resolved'],
        [backend, 'open'],
      ].sort(),
    )
    expect((await dependencies(backend)).suppressedBy).toBeNull()
    expect(await releaseOrphanedSuppressions(harness.ctx)).toEqual([])
  })

  it('a dependent reaching its threshold a check before its parent is held, then counted under the parent incident', async () => {
    const gateway = await service('proxy')
    const backend = await service('billing')
    await call('PUT', `/api/monitors/${backend}/dependencies`, { dependsOn: [gateway] })
    await feed([gateway, backend], ['up'], 2000)
    // Separate batches, as two probes' checks arrive: the gateway's first failure, then the backend's second.
    await feed([backend], ['down'], 200)
    await feed([gateway], ['down'], 199)
    await feed([backend], ['down'], 195)
    expect(await incidentsOf([gateway, backend])).toEqual([])
    expect((await dependencies(backend)).suppressedBy).toEqual({ monitorId: gateway, incidentId: null })
    expect(await releaseOrphanedSuppressions(harness.ctx)).toEqual([])

    await feed([gateway], ['down'], 194)
    const [incident, ...others] = await incidentsOf([gateway, backend])
    expect(others).toEqual([])
    expect(incident).toMatchObject({ monitorId: gateway, status: 'open' })
    expect((await dependencies(backend)).suppressedBy).toEqual({ monitorId: gateway, incidentId: incident!.id })
    const detail = (await call('GET', `/api/incidents/${incident!.id}`)).body.data as Incident
    expect(detail.dependentsAffected.monitors).toEqual([
      expect.objectContaining({ monitorId: backend, reason: 'proxy is down', endedAt: null }),
    ])
  })

  it('a dependent held behind a parent that recovers without going down opens its own incident, once', async () => {
    const gateway = await service('router')
    const backend = await service('search')
    await call('PUT', `/api/monitors/${backend}/dependencies`, { dependsOn: [gateway] })
    await feed([gateway, backend], ['up'], 2000)
    await feed([backend], ['down'], 900)
    await feed([gateway], ['down'], 899)
    await feed([backend], ['down'], 895)
    expect((await dependencies(backend)).suppressedBy).toEqual({ monitorId: gateway, incidentId: null })
    // The gateway recovers, then fails a single check again: still below its threshold, but the
    // backend has been checked for the gateway's failure_threshold intervals since it was held.
    await feed([gateway], ['up', 'down'], 890)
    await feed([backend], ['down'], 700)
    expect(await releaseOrphanedSuppressions(harness.ctx)).toEqual([backend])
    await eventsSettled(harness.ctx)
    const incidents = await incidentsOf([gateway, backend])
    expect(incidents.map((i) => [i.monitorId, i.status])).toEqual([[backend, 'open']])
    expect((await dependencies(backend)).suppressedBy).toBeNull()
    expect(await releaseOrphanedSuppressions(harness.ctx)).toEqual([])
  })

  it('a chain of dependencies counts every failure under the root incident', async () => {
    const vpn = await service('vpn')
    const site = await service('site')
    const page = await service('page')
    await call('PUT', `/api/monitors/${site}/dependencies`, { dependsOn: [vpn] })
    await call('PUT', `/api/monitors/${page}/dependencies`, { dependsOn: [site] })
    await feed([vpn, site, page], ['up'], 300)
    await feed([vpn], ['down', 'down'], 200)
    await feed([page, site], ['down', 'down'], 190)
    const [incident, ...others] = await incidentsOf([vpn, site, page])
    expect(others).toEqual([])
    expect(incident!.monitorId).toBe(vpn)
    expect(await dependencies(page)).toMatchObject({ suppressedBy: { monitorId: site, incidentId: incident!.id } })
    const detail = (await call('GET', `/api/incidents/${incident!.id}`)).body.data as Incident
    expect(detail.dependentsAffected.count).toBe(2)
  })

  it('a cached answer of the dependencies route shows a suppression, its incident and its end as soon as the reactions wrote them', async () => {
    const gateway = await service('cached-gateway')
    const backend = await service('cached-backend')
    await call('PUT', `/api/monitors/${backend}/dependencies`, { dependsOn: [gateway] })
    await feed([gateway, backend], ['up'], 300)
    const read = async () => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/monitors/${backend}/dependencies`,
        headers: { authorization: 'Bearer user:alice' },
      })
      return { cache: response.headers['x-cache'], suppressedBy: response.json().data.suppressedBy }
    }
    await read()
    expect(await read()).toEqual({ cache: 'hit', suppressedBy: null })

    // `feed` stores states without the ingest's invalidation: only the reactions' writes can stale the entry.
    await feed([backend, gateway], ['down', 'down'], 200)
    const [incident] = await incidentsOf([gateway])
    expect(await read()).toEqual({ cache: 'miss', suppressedBy: { monitorId: gateway, incidentId: incident!.id } })
    expect((await read()).cache).toBe('hit')

    await feed([gateway, backend], ['up'], 100)
    expect(await read()).toEqual({ cache: 'miss', suppressedBy: null })
  })

  it("a domain's and a heartbeat's detail show what they depend on, their dependents and what suppresses them", async () => {
    const vpn = await service('office-vpn')
    const site = await call('POST', '/api/domains', { url: 'https://intranet.example' })
    const backup = await call('POST', '/api/heartbeats', { name: 'nightly backup', every: 3600 })
    expect([site.status, backup.status]).toEqual([201, 201])
    const [siteId, backupId] = [site.body.data.id as string, backup.body.data.id as string]
    await call('PUT', `/api/monitors/${siteId}/dependencies`, { dependsOn: [vpn] })
    await call('PUT', `/api/monitors/${backupId}/dependencies`, { dependsOn: [vpn, siteId] })
    await feed([vpn, siteId], ['up'], 300)
    await feed([vpn], ['down', 'down'], 200)
    await feed([siteId], ['down', 'down'], 190)
    const [incident] = await incidentsOf([vpn])
    expect((await call('GET', `/api/domains/${siteId}`)).body.data).toMatchObject({
      dependsOn: [vpn],
      dependentsCount: 1,
      suppressedBy: { monitorId: vpn, incidentId: incident!.id },
    })
    expect((await call('GET', `/api/heartbeats/${backupId}`)).body.data).toMatchObject({
      dependsOn: [vpn, siteId].sort(),
      dependentsCount: 0,
      suppressedBy: null,
    })
  })

  it("shows a monitor's dependencies to an MCP client, and another organization's as a tool error", async () => {
    const gateway = await service('mcp-gateway')
    const backend = await service('mcp-backend')
    await call('PUT', `/api/monitors/${backend}/dependencies`, { dependsOn: [gateway] })
    const mcp = async (monitorId: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { authorization: `Bearer ${harness.apiKey}`, accept: 'application/json, text/event-stream' },
          payload: {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'get_dependencies', arguments: { monitorId } },
          },
        })
      ).json().result
    const answer = await mcp(backend)
    expect(answer.isError).toBeFalsy()
    expect(answer.structuredContent).toMatchObject({ monitorId: backend, dependsOn: [gateway], suppressedBy: null })
    const theirs = await service('mcp-theirs', 'mallory')
    const refused = await mcp(theirs)
    expect(refused.isError).toBe(true)
    expect(refused.content[0].text).toBe('NOT_FOUND: Monitor not found')
  })

  it('refuses a self-dependency, a cycle and a monitor of another organization, naming dependsOn', async () => {
    const a = await service('cycle-a')
    const b = await service('cycle-b')
    const c = await service('cycle-c')
    expect((await call('PUT', `/api/monitors/${b}/dependencies`, { dependsOn: [a] })).status).toBe(200)
    expect((await call('PUT', `/api/monitors/${c}/dependencies`, { dependsOn: [b] })).status).toBe(200)

    const self = await call('PUT', `/api/monitors/${a}/dependencies`, { dependsOn: [a] })
    expect(self.status).toBe(400)
    expect(self.body.message).toMatch(/^dependsOn: a monitor cannot depend on itself/)
    const cycle = await call('PUT', `/api/monitors/${a}/dependencies`, { dependsOn: [c] })
    expect(cycle.status).toBe(400)
    expect(cycle.body.message).toBe(
      `dependsOn: ${c} depends on this monitor (directly or through others), which would make a cycle`,
    )
    expect((await dependencies(a)).dependsOn).toEqual([])

    const theirs = await service('theirs', 'mallory')
    const foreign = await call('PUT', `/api/monitors/${a}/dependencies`, { dependsOn: [theirs] })
    expect(foreign.status).toBe(400)
    expect(foreign.body.message).toBe('dependsOn: 1 of the ids are not monitors of the organization')
    expect(foreign.body.message).not.toContain(theirs)
    expect((await call('GET', `/api/monitors/${a}/dependencies`, undefined, 'mallory')).status).toBe(404)
    expect((await call('PUT', `/api/monitors/${theirs}/dependencies`, { dependsOn: [a] }, 'mallory')).status).toBe(400)
  })
})
