import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resultFor } from '../../routes/test-helpers.ts'
import { collectorAppWithUsers, injectAsUser, userCaller } from '../../test-support.ts'
import { applyResultsToState } from '../monitor-state/apply-results.ts'

describe('a group as a status-page component', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  const as = (user: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    injectAsUser(harness.app, user, method, url, payload)
  let page: string
  let group: string
  let strangerGroup: string

  beforeAll(async () => {
    harness = await collectorAppWithUsers(
      { owner: userCaller('owner', ['org-a']), stranger: userCaller('stranger', ['org-b']) },
      { GUARD_STATUS_PAGE_CACHE_SECONDS: '0' },
    )
    const domain = async (url: string, name: string) =>
      (await as('owner', 'POST', '/api/domains', { url, name })).body.data.id as string
    const shop = await domain('https://shop.example', 'Shop')
    const api = await domain('https://api.example', 'API')
    const cdn = await domain('https://cdn.example', 'CDN')
    group = (await as('owner', 'POST', '/api/groups', { name: 'Checkout', rule: { type: 'any' } })).body.data.id
    const child = (await as('owner', 'POST', '/api/groups', { name: 'Edge', parentId: group })).body.data.id
    await as('owner', 'PUT', `/api/groups/${group}/members`, {
      add: [
        { kind: 'domain', id: shop },
        { kind: 'domain', id: api },
      ],
    })
    await as('owner', 'PUT', `/api/groups/${child}/members`, { add: [{ kind: 'domain', id: cdn }] })
    strangerGroup = (await as('stranger', 'POST', '/api/groups', { name: 'Theirs' })).body.data.id
    // Down from every location over three rounds: past the state machine's confirmation.
    for (const ago of [300, 200, 100]) {
      await applyResultsToState(harness.ctx.sql, [
        resultFor(shop, 'org-a', 'fra', ago, 'up', 40),
        resultFor(api, 'org-a', 'fra', ago, 'down', 900),
        resultFor(api, 'org-a', 'nyc', ago, 'down', 900),
      ])
    }
    page = (await as('owner', 'POST', '/api/status-pages', { name: 'Status', slug: 'group-status', isPublic: true }))
      .body.data.id
  })
  afterAll(() => harness.close())

  it('adds a group of the page organization once, under its name or a display name', async () => {
    const added = await as('owner', 'POST', `/api/status-pages/${page}/groups`, {
      groupId: group,
      displayName: 'Checkout flow',
    })
    expect(added.status).toBe(201)
    expect(added.body.data.components).toEqual([
      expect.objectContaining({ kind: 'group', subjectId: group, displayName: 'Checkout flow' }),
    ])
    const again = await as('owner', 'POST', `/api/status-pages/${page}/groups`, { groupId: group })
    expect(again.status).toBe(409)
  })

  it("refuses another organization's group as not found", async () => {
    const refused = await as('owner', 'POST', `/api/status-pages/${page}/groups`, { groupId: strangerGroup })
    expect(refused.status).toBe(404)
    expect(JSON.stringify(refused.body)).toMatch(/Group not found/i)
  })

  it("shows the group's derived state and its members' states in the public JSON", async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/status-pages/group-status/public' })
    const component = response.json().data.components[0]
    expect(component).toMatchObject({ name: 'Checkout flow', kind: 'group', status: 'down', daily: [] })
    expect(component.members).toEqual([
      { name: 'Edge', kind: 'group', status: 'unknown' },
      { name: 'API', kind: 'domain', status: 'down' },
      { name: 'Shop', kind: 'domain', status: 'up' },
    ])
    expect(response.json().data.status).toBe('major_outage')
  })

  it('renders the group as an expandable list of its members in the public HTML', async () => {
    const html = (await harness.app.inject({ method: 'GET', url: '/status/group-status' })).body
    expect(html).toContain('<details class="members"><summary>3 members</summary>')
    expect(html).toContain('<span class="dot down"></span>API: Down')
    expect(html).toContain('Edge (group): No data')
  })

  it('drops a deleted group from the page', async () => {
    await as('owner', 'DELETE', `/api/groups/${group}`)
    const detail = await as('owner', 'GET', `/api/status-pages/${page}`)
    expect(detail.body.data.components).toEqual([])
  })
})
