import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { authenticateWithUsers, collectorForTest, injectAsUser, userCaller } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('GET /api/monitors: one search over every kind', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const call = (url: string, user = 'alice') => injectAsUser(app, user, 'GET', url)

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_RATE_LIMIT_WRITE: '100000', GUARD_RATE_LIMIT_READ: '100000' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        reader: { ...userCaller('reader', [ORG]), permissions: ['heartbeats:read'] },
      }),
    })
    const post = async (url: string, payload: object) =>
      expect((await injectAsUser(app, 'alice', 'POST', url, payload)).status).toBe(201)
    for (let index = 0; index < 205; index++) {
      await post('/api/domains', {
        url: `https://site-${String(index).padStart(3, '0')}.example`,
        name: `Site ${index}`,
      })
    }
    await post('/api/domains', { url: 'https://shop.example', name: 'Zebra shop', tags: ['team:payments'] })
    await post('/api/services', {
      name: 'Zebra gateway',
      protocol: 'tcp',
      protocolConfig: { host: 'gw.example', port: 443 },
      tags: ['team:payments'],
    })
    await post('/api/heartbeats', { name: 'Zebra backup 100%_done', every: 3600 })
  }, 120_000)
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('finds a monitor past the first 200 by its name, across kinds, sorted by name', async () => {
    const found = await call('/api/monitors?search=zebra')
    expect(found.status).toBe(200)
    expect(found.body.data.map((item: { kind: string; name: string }) => [item.kind, item.name])).toEqual([
      ['heartbeat', 'Zebra backup 100%_done'],
      ['service', 'Zebra gateway'],
      ['domain', 'Zebra shop'],
    ])
    expect((await call('/api/monitors?search=site-204')).body.data).toMatchObject([
      { kind: 'domain', name: 'Site 204' },
    ])
  })

  it('narrows by kind, tag and id, and stops at the limit', async () => {
    const services = await call('/api/monitors?search=zebra&kind=service&kind=heartbeat')
    expect(services.body.data.map((item: { name: string }) => item.name)).toEqual([
      'Zebra backup 100%_done',
      'Zebra gateway',
    ])
    const tagged = await call('/api/monitors?tag=team:payments')
    expect(tagged.body.data.map((item: { name: string }) => item.name)).toEqual(['Zebra gateway', 'Zebra shop'])
    expect((await call('/api/monitors?limit=7')).body.data).toHaveLength(7)
    const [first, second] = (await call('/api/monitors?search=zebra')).body.data as Array<{ id: string }>
    const named = await call(`/api/monitors?id=${first?.id}&id=${second?.id}`)
    expect(named.body.data.map((item: { id: string }) => item.id)).toEqual([first?.id, second?.id])
    expect((await call('/api/monitors')).body.data).toHaveLength(50)
  })

  it('reads percent and underscore in a search as themselves', async () => {
    expect((await call('/api/monitors?search=100%25_')).body.data).toMatchObject([{ name: 'Zebra backup 100%_done' }])
    expect((await call('/api/monitors?search=%25')).body.data).toHaveLength(1)
  })

  it('leaves out the kinds the caller may not read', async () => {
    const found = await call('/api/monitors?search=zebra', 'reader')
    expect(found.body.data.map((item: { kind: string }) => item.kind)).toEqual(['heartbeat'])
  })

  it('refuses an unknown kind and a limit over 200 with 400', async () => {
    expect((await call('/api/monitors?kind=printer')).status).toBe(400)
    expect((await call('/api/monitors?limit=201')).status).toBe(400)
  })
})
