import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { buildCollectorApp } from '../app.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { invalidateIngestedReads } from '../services/read-cache/invalidate.ts'
import { collectorAppWithUsers, injectAsUser, userCaller } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id
const OTHER = 'org_other'

describe('groups through the API', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, user = 'alice') =>
    injectAsUser(app, user, method, url, payload)
  const created = async (url: string, payload: object, user = 'alice') => {
    const response = await call('POST', url, payload, user)
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body.data.id as string
  }
  const domain = (name: string, user = 'alice') => created('/api/domains', { url: `https://${name}.example` }, user)
  /** Two results in a row (the failure threshold's default), applied and announced as the ingest does. */
  const checked = async (id: string, status: 'up' | 'down', organizationId = ORG, secondsAgo = 20) => {
    const stateChanged = new Set<string>()
    await applyResultsToState(
      harness.ctx.sql,
      [
        resultFor(id, organizationId, 'fra', secondsAgo, status, 10),
        resultFor(id, organizationId, 'fra', secondsAgo - 10, status, 10),
      ],
      { stateChanged },
    )
    await invalidateIngestedReads({
      ctx: harness.ctx,
      organizationIds: [organizationId],
      monitorIds: [id],
      stateChanged,
    })
  }
  const group = (payload: object) => created('/api/groups', payload)
  const members = (id: string, add: object[], remove: object[] = []) =>
    call('PUT', `/api/groups/${id}/members`, { add, remove })
  const detail = async (id: string) => (await call('GET', `/api/groups/${id}`)).body.data

  beforeAll(async () => {
    harness = await collectorAppWithUsers(
      { alice: userCaller('alice', [ORG]), mallory: userCaller('mallory', [OTHER]) },
      { GUARD_RATE_LIMIT_READ: '100000', GUARD_RATE_LIMIT_WRITE: '100000' },
    )
    app = harness.app
  })
  afterAll(() => harness.close())

  it("derives a group's state from its members and its child groups by the rule", async () => {
    const [shop, cart, api] = await Promise.all([domain('shop'), domain('cart'), domain('api')])
    const heartbeat = await created('/api/heartbeats', { name: 'nightly', every: 3600 })
    await Promise.all([checked(shop, 'up'), checked(cart, 'down'), checked(api, 'up')])
    const web = await group({ name: 'Web', rule: { type: 'any' } })
    const backend = await group({ name: 'Backend', parentId: web })
    expect(
      (
        await members(web, [
          { kind: 'domain', id: shop },
          { kind: 'domain', id: cart },
        ])
      ).status,
    ).toBe(200)
    const added = await members(backend, [
      { kind: 'domain', id: api },
      { kind: 'heartbeat', id: heartbeat },
    ])
    // The heartbeat has no state yet: it says nothing about the group.
    expect(added.body.data).toMatchObject({
      state: 'up',
      memberCount: 2,
      members: [
        { kind: 'domain', id: api, state: 'up' },
        { kind: 'heartbeat', id: heartbeat, state: 'unknown' },
      ],
    })
    expect(await detail(web)).toMatchObject({
      state: 'down',
      children: [{ id: backend, state: 'up' }],
    })
    const tree = (await call('GET', '/api/groups')).body.data
    expect(tree).toMatchObject([{ id: web, state: 'down', children: [{ id: backend, state: 'up', children: [] }] }])

    await call('PUT', `/api/groups/${web}`, { rule: { type: 'all' } })
    expect((await detail(web)).state).toBe('degraded')
    // One of three members down (the child group counts as one): 33 %.
    await call('PUT', `/api/groups/${web}`, { rule: { type: 'percent', percent: 50 } })
    expect((await detail(web)).state).toBe('degraded')
    await call('PUT', `/api/groups/${web}`, { rule: { type: 'percent', percent: 30 } })
    expect((await detail(web)).state).toBe('down')
    await checked(cart, 'up')
    expect((await detail(web)).state).toBe('up')
    const stats = (await call('GET', '/api/dashboard/stats')).body.data
    expect(stats.groups).toEqual({ total: 2, up: 2, down: 0, degraded: 0, unknown: 0 })
  })

  it('lists the groups with their states to an MCP client, and refuses another organization', async () => {
    const mcp = (organizationId?: string) =>
      app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { authorization: `Bearer ${harness.apiKey}`, accept: 'application/json, text/event-stream' },
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_groups', arguments: organizationId ? { organizationId } : {} },
        },
      })
    const answer = (await mcp()).json().result
    expect(answer.isError).toBeFalsy()
    expect(answer.structuredContent.summary).toMatchObject({ total: 2, up: 2 })
    expect(answer.structuredContent.groups).toMatchObject([{ name: 'Web', children: [{ name: 'Backend' }] }])
    expect((await mcp(OTHER)).json().result.isError).toBe(true)
  })

  it("lists show each item's groupId and filter by ?groupId, with &includeSubgroups=true its subgroups too", async () => {
    const parent = await group({ name: 'Listed' })
    const child = await group({ name: 'Listed child', parentId: parent })
    const [inParent, inChild, ungrouped] = await Promise.all([
      domain('listed-parent'),
      domain('listed-child'),
      domain('ungrouped'),
    ])
    const service = await created('/api/services', {
      name: 'Listed service',
      protocol: 'tcp',
      protocolConfig: { host: 'listed.example', port: 22 },
    })
    const heartbeat = await created('/api/heartbeats', { name: 'Listed job', every: 3600 })
    const device = await created('/api/devices', { name: 'Listed device' })
    await members(parent, [
      { kind: 'domain', id: inParent },
      { kind: 'service', id: service },
    ])
    await members(child, [
      { kind: 'domain', id: inChild },
      { kind: 'heartbeat', id: heartbeat },
      { kind: 'device', id: device },
    ])
    const ids = async (url: string) =>
      ((await call('GET', url)).body.data as Array<{ id: string; groupId?: string | null; group_id?: string | null }>)
        .map((item) => `${item.id}:${item.groupId ?? item.group_id}`)
        .sort()
    expect(await ids(`/api/domains?groupId=${parent}`)).toEqual([`${inParent}:${parent}`])
    expect(await ids(`/api/domains?groupId=${parent}&includeSubgroups=true`)).toEqual(
      [`${inParent}:${parent}`, `${inChild}:${child}`].sort(),
    )
    expect(await ids(`/api/domains?offset=0&groupId=${child}`)).toEqual([`${inChild}:${child}`])
    expect(await ids(`/api/services?groupId=${parent}&includeSubgroups=true`)).toEqual([`${service}:${parent}`])
    expect(await ids(`/api/heartbeats?groupId=${parent}`)).toEqual([])
    expect(await ids(`/api/heartbeats?groupId=${parent}&includeSubgroups=true`)).toEqual([`${heartbeat}:${child}`])
    expect(await ids(`/api/devices?groupId=${child}`)).toEqual([`${device}:${child}`])
    const all = (await call('GET', '/api/domains?limit=200')).body.data as Array<{ id: string; groupId: string | null }>
    expect(all.find((item) => item.id === inParent)?.groupId).toBe(parent)
    expect(all.find((item) => item.id === ungrouped)?.groupId).toBeNull()
    expect((await call('GET', `/api/domains?groupId=${parent}`, undefined, 'mallory')).status).toBe(404)
    expect((await call('GET', `/api/devices?groupId=${parent}`, undefined, 'mallory')).status).toBe(404)
  })

  it('the single-item GET of a domain, service, heartbeat and device shows its groupId, null when ungrouped', async () => {
    const home = await group({ name: 'Detailed' })
    const [grouped, loose] = await Promise.all([domain('detailed'), domain('detailed-loose')])
    const service = await created('/api/services', {
      name: 'Detailed service',
      protocol: 'tcp',
      protocolConfig: { host: 'detailed.example', port: 22 },
    })
    const heartbeat = await created('/api/heartbeats', { name: 'Detailed job', every: 3600 })
    const device = await created('/api/devices', { name: 'Detailed device' })
    await members(home, [
      { kind: 'domain', id: grouped },
      { kind: 'service', id: service },
      { kind: 'heartbeat', id: heartbeat },
      { kind: 'device', id: device },
    ])
    const groupOf = async (url: string) => {
      const response = await call('GET', url)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return response.body.data.groupId
    }
    expect(await groupOf(`/api/domains/${grouped}`)).toBe(home)
    expect(await groupOf(`/api/services/${service}`)).toBe(home)
    expect(await groupOf(`/api/heartbeats/${heartbeat}`)).toBe(home)
    expect(await groupOf(`/api/devices/${device}`)).toBe(home)
    expect(await groupOf(`/api/domains/${loose}`)).toBeNull()
  })

  it('refuses a fourth level and a group under its own descendant, naming parentId', async () => {
    const top = await group({ name: 'Top' })
    const middle = await group({ name: 'Middle', parentId: top })
    const bottom = await group({ name: 'Bottom', parentId: middle })
    const fourth = await call('POST', '/api/groups', { name: 'Fourth', parentId: bottom })
    expect(fourth.status).toBe(400)
    expect(fourth.body.message).toMatch(/parentId: groups nest at most 3 levels deep/)
    const cycle = await call('PUT', `/api/groups/${top}`, { parentId: bottom })
    expect(cycle.status).toBe(400)
    expect(cycle.body.message).toMatch(/parentId: a group cannot be its own ancestor/)
    expect((await call('PUT', `/api/groups/${middle}`, { parentId: middle })).status).toBe(400)
    expect((await call('PUT', `/api/groups/${bottom}`, { parentId: null })).body.data.parentId).toBeNull()
  })

  it('answers 409 for a name the organization already uses, 400 naming the field for a bad rule', async () => {
    await group({ name: 'Unique' })
    const again = await call('POST', '/api/groups', { name: 'Unique' })
    expect(again.status).toBe(409)
    expect(again.body.message).toMatch(/^name: /)
    const rule = await call('POST', '/api/groups', { name: 'Bad rule', rule: { type: 'percent', percent: 0 } })
    expect(rule.status).toBe(400)
    expect(rule.body.message).toMatch(/percent/)
  })

  it('keeps a member in one group at most: adding it elsewhere moves it', async () => {
    const id = await domain('mover')
    const first = await group({ name: 'First' })
    const second = await group({ name: 'Second' })
    await members(first, [{ kind: 'domain', id }])
    await members(second, [{ kind: 'domain', id }])
    expect((await detail(first)).members).toEqual([])
    expect((await detail(second)).members).toMatchObject([{ id }])
    expect((await members(second, [], [{ kind: 'domain', id }])).body.data.members).toEqual([])
  })

  it("refuses another organization's monitor as a member and hides the group from that organization", async () => {
    const theirs = await domain('theirs', 'mallory')
    const ours = await group({ name: 'Ours' })
    const refused = await members(ours, [{ kind: 'domain', id: theirs }])
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe("add[0]: no domain with that id in the group's organization")
    const wrongKind = await members(ours, [{ kind: 'service', id: await domain('not-a-service') }])
    expect(wrongKind.body.message).toMatch(/^add\[0\]: no service/)
    expect((await call('GET', `/api/groups/${ours}`, undefined, 'mallory')).status).toBe(404)
    expect((await call('GET', '/api/groups', undefined, 'mallory')).body.data).toEqual([])
    const theirGroup = await created('/api/groups', { name: 'Theirs' }, 'mallory')
    const mine = await domain('mine')
    const stolen = await call(
      'PUT',
      `/api/groups/${theirGroup}/members`,
      { add: [{ kind: 'domain', id: mine }] },
      'mallory',
    )
    expect(stolen.status).toBe(400)
  })

  it('deleting a group ungroups its members and lifts its child groups to the top level', async () => {
    const id = await domain('orphan')
    const parent = await group({ name: 'Parent' })
    const child = await group({ name: 'Child', parentId: parent })
    await members(parent, [{ kind: 'domain', id }])
    expect((await call('DELETE', `/api/groups/${parent}`)).body.data).toEqual({ id: parent, deleted: true })
    expect((await detail(child)).parentId).toBeNull()
    const { rows } = await harness.ctx.sql.query('SELECT group_id FROM monitoring.monitors WHERE id = $1', [id])
    expect(rows).toEqual([{ group_id: null }])
    expect((await call('GET', `/api/groups/${parent}`)).status).toBe(404)
  })

  it('keeps the tree cached while ingested results leave every state as it was, and shows a change of state at once', async () => {
    const [steady, flapping] = await Promise.all([domain('steady'), domain('flapping')])
    const watched = await group({ name: 'Watched' })
    await members(watched, [
      { kind: 'domain', id: steady },
      { kind: 'domain', id: flapping },
    ])
    await Promise.all([checked(steady, 'up', ORG, 90), checked(flapping, 'up', ORG, 90)])
    const tree = async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/groups',
        headers: { authorization: 'Bearer user:alice' },
      })
      const found = (response.json().data as Array<{ id: string; state: string }>).find((node) => node.id === watched)
      return { cache: response.headers['x-cache'], state: found?.state }
    }
    await tree()
    expect(await tree()).toEqual({ cache: 'hit', state: 'up' })
    await checked(steady, 'up', ORG, 60)
    expect(await tree()).toEqual({ cache: 'hit', state: 'up' })
    await checked(flapping, 'down', ORG, 40)
    expect(await tree()).toEqual({ cache: 'miss', state: 'degraded' })
  })
})
