import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorAppWithUsers, userCaller } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('tags and bulk actions', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  const as = (user: string) => ({ authorization: `Bearer user:${user}` })
  const call = (user: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    harness.app.inject({ method, url, headers: as(user), ...(payload ? { payload } : {}) })
  const bulk = (user: string, body: Record<string, unknown>) => call(user, 'POST', '/api/monitors/bulk', body)
  const domains = async (user: string) =>
    (await call(user, 'GET', '/api/domains?offset=0&limit=50')).json().data as {
      name: string
      status: string
      tags: string[]
      check_interval: number
    }[]

  beforeAll(async () => {
    harness = await collectorAppWithUsers(
      {
        ours: userCaller('ours', [ORG]),
        stranger: userCaller('stranger', ['org-stranger']),
        domainsOnly: userCaller('domains-only', [ORG], ['domains:read', 'domains:write']),
        // More bulk requests than the default limit allows in a minute.
      },
      { GUARD_RATE_LIMIT_BULK: '1000' },
    )
    for (const user of ['ours', 'stranger']) {
      for (const [name, tags] of [
        ['a', ['env:prod', 'team:payments']],
        ['b', ['env:prod']],
        ['c', ['env:staging']],
      ] as const) {
        const created = await call(user, 'POST', '/api/domains', {
          url: `https://${name}.example`,
          name,
          tags: [...tags],
        })
        expect(created.statusCode, created.body).toBe(201)
      }
    }
    expect((await call('ours', 'POST', '/api/devices', { name: 'd', tags: ['env:prod'] })).statusCode).toBe(201)
  })
  afterAll(() => harness.close())

  it('lists every tag in use with its count per kind and its colour, set per key', async () => {
    expect((await call('ours', 'PUT', '/api/tags/ENV', { color: '#FF0000' })).json().data).toEqual({
      key: 'env',
      color: '#ff0000',
    })
    const tags = (await call('ours', 'GET', '/api/tags')).json().data
    expect(tags.find((tag: { tag: string }) => tag.tag === 'env:prod')).toEqual({
      tag: 'env:prod',
      key: 'env',
      value: 'prod',
      color: '#ff0000',
      colorSet: true,
      counts: { domain: 2, service: 0, heartbeat: 0, device: 1 },
      total: 3,
    })
    expect(tags.map((tag: { tag: string }) => tag.tag)).toEqual(['env:prod', 'env:staging', 'team:payments'])
    expect(tags.find((tag: { tag: string }) => tag.tag === 'team:payments')).toMatchObject({ colorSet: false })
    expect((await call('stranger', 'GET', '/api/tags')).json().data[0]).toMatchObject({
      tag: 'env:prod',
      colorSet: false,
    })
  })

  it('refuses a bad colour or key with a 400 naming it', async () => {
    const color = await call('ours', 'PUT', '/api/tags/env', { color: 'red' })
    expect(color.statusCode).toBe(400)
    expect(color.json().message).toMatch(/color/)
    const key = await call('ours', 'PUT', `/api/tags/${encodeURIComponent('bad key')}`, { color: '#000000' })
    expect(key.statusCode).toBe(400)
  })

  it('counts on a dry run (the default) and changes nothing; applies when dryRun is false', async () => {
    const body = { filter: { tags: ['env:prod'], kinds: ['domain'] }, action: 'pause' }
    expect((await bulk('ours', body)).json().data).toEqual({ matched: 2, changed: 2, dryRun: true })
    expect((await domains('ours')).filter((domain) => domain.status === 'inactive')).toEqual([])
    expect((await bulk('ours', { ...body, dryRun: false })).json().data).toEqual({
      matched: 2,
      changed: 2,
      dryRun: false,
    })
    expect(
      (await domains('ours'))
        .filter((domain) => domain.status === 'inactive')
        .map((d) => d.name)
        .sort(),
    ).toEqual(['a', 'b'])
    // Already paused: matched, not changed.
    expect((await bulk('ours', { ...body, dryRun: false })).json().data).toEqual({
      matched: 2,
      changed: 0,
      dryRun: false,
    })
    await bulk('ours', { ...body, action: 'resume', dryRun: false })
    expect((await domains('ours')).filter((domain) => domain.status === 'inactive')).toEqual([])
  })

  it('adds and removes tags, a bare key removing every tag of it, on monitors and devices', async () => {
    const added = await bulk('ours', { filter: { tags: ['env'] }, action: 'addTag', value: 'Tier:1', dryRun: false })
    expect(added.json().data).toEqual({ matched: 4, changed: 4, dryRun: false })
    expect((await call('ours', 'GET', '/api/devices?tag=tier:1')).json().data).toHaveLength(1)
    const removed = await bulk('ours', { filter: {}, action: 'removeTag', value: 'tier', dryRun: false })
    expect(removed.json().data).toMatchObject({ changed: 4 })
    expect((await domains('ours')).find((domain) => domain.name === 'a')?.tags).toEqual(['env:prod', 'team:payments'])
  })

  it('sets intervals on domains and services only, within the schema, and never touches another organization', async () => {
    const body = { filter: { tags: ['env:staging'] }, action: 'setInterval', value: 300, dryRun: false }
    expect((await bulk('ours', body)).json().data).toEqual({ matched: 1, changed: 1, dryRun: false })
    expect((await domains('ours')).find((domain) => domain.name === 'c')?.check_interval).toBe(300)
    expect((await domains('stranger')).find((domain) => domain.name === 'c')?.check_interval).not.toBe(300)
    const tooFast = await bulk('ours', { ...body, value: 1 })
    expect(tooFast.statusCode).toBe(400)
    expect(tooFast.json().message).toMatch(/value/)
  })

  it('deletes through the delete services, only what the filter selects in the caller’s organization', async () => {
    const body = { filter: { tags: ['team:payments'] }, action: 'delete' }
    expect((await bulk('ours', body)).json().data).toEqual({ matched: 1, changed: 1, dryRun: true })
    expect((await bulk('ours', { ...body, dryRun: false })).json().data).toMatchObject({ changed: 1 })
    expect((await domains('ours')).map((domain) => domain.name).sort()).toEqual(['b', 'c'])
    expect((await domains('stranger')).map((domain) => domain.name).sort()).toEqual(['a', 'b', 'c'])
    const foreign = await bulk('stranger', { filter: {}, action: 'delete', dryRun: false, organizationId: ORG })
    expect(foreign.statusCode).toBe(403)
    expect(await domains('ours')).toHaveLength(2)
  })

  it('needs write permission on every kind it acts on', async () => {
    const named = await bulk('domainsOnly', { filter: { kinds: ['device'] }, action: 'delete' })
    expect(named.statusCode).toBe(403)
    expect(named.json().message).toMatch(/devices:write/)
    // By default, only the kinds the caller may write.
    expect((await bulk('domainsOnly', { filter: { tags: ['env:prod'] }, action: 'pause' })).json().data).toEqual({
      matched: 1,
      changed: 1,
      dryRun: true,
    })
  })

  it('refuses an action without its value, or with a malformed tag, with a 400 naming it', async () => {
    for (const body of [
      { filter: {}, action: 'addTag' },
      { filter: {}, action: 'addTag', value: 'bad key' },
      { filter: { tags: ['env:'] }, action: 'pause' },
      { filter: {}, action: 'setLocations', value: [] },
    ]) {
      const response = await bulk('ours', body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().message).toMatch(/value|filter\.tags/)
    }
  })
})
