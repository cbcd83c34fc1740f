import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { resolveEnv } from '@guard/shared/config-as-code'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorForTest, userCaller } from '../../test-support.ts'
import { listHeartbeats } from '../heartbeats/list.ts'
import { listMonitors } from '../monitors/list.ts'
import { applyConfig } from './apply.ts'
import { exportConfig } from './export.ts'
import { planConfig } from './plan.ts'

const ORG = DEFAULT_ORGANIZATION.id
const caller = userCaller('alice', [ORG])

const document = (overrides: Record<string, unknown> = {}) => ({
  version: 1,
  tags: [{ id: 'prod', name: 'env:prod', color: '#ff0000' }],
  groups: [{ id: 'web', name: 'Web' }],
  channels: [{ id: 'ops', name: 'Ops', provider: 'webhook', config: { url: 'https://1.1.1.1/guard' } }],
  routes: [{ id: 'critical', name: 'Critical', channels: ['ops'], selector: { monitors: ['shop'] } }],
  domains: [
    { id: 'shop', name: 'Shop', url: 'https://shop.example.com', tags: ['prod'], group: 'web', dependsOn: ['db'] },
  ],
  services: [{ id: 'db', name: 'DB', protocol: 'tcp', protocolConfig: { host: 'db.example.com', port: 5432 } }],
  heartbeats: [{ id: 'backup', name: 'Nightly backup', every: 86400 }],
  maintenance: [
    {
      id: 'sunday',
      title: 'Sunday',
      startsAt: '2030-01-06T02:00:00Z',
      endsAt: '2030-01-06T04:00:00Z',
      monitors: ['shop'],
    },
  ],
  statusPages: [
    { id: 'public', name: 'Status', slug: 'shop-status', components: [{ monitor: 'shop' }, { monitor: 'db' }] },
  ],
  ...overrides,
})

describe('monitoring as code', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())
  const plan = (input: Record<string, unknown>, prune = false) =>
    planConfig({ ctx: harness.ctx, caller, input: { document: input, prune } })
  const apply = (input: Record<string, unknown>, prune = false) =>
    applyConfig({ ctx: harness.ctx, caller, input: { document: input, prune } })

  it('creates every object of a document, then a second apply changes nothing', async () => {
    const first = await apply(document())
    expect(first.failed).toEqual([])
    expect(first.summary).toMatchObject({ create: 9, update: 0, delete: 0 })
    const [domain] = await listMonitors({ ctx: harness.ctx, caller, input: { kind: 'domain' } })
    expect(domain).toMatchObject({ name: 'Shop', tags: ['env:prod'] })
    expect((await plan(document())).changes).toEqual([])
    expect((await apply(document())).summary).toMatchObject({ create: 0, update: 0, delete: 0 })
  })

  it('renames by key: a new name is an update of the same object, not a delete and a create', async () => {
    const renamed = document({
      domains: [
        {
          id: 'shop',
          name: 'Shop front',
          url: 'https://shop.example.com',
          tags: ['prod'],
          group: 'web',
          dependsOn: ['db'],
        },
      ],
    })
    const planned = await plan(renamed, true)
    expect(planned.changes).toEqual([
      expect.objectContaining({
        action: 'update',
        kind: 'domain',
        id: 'shop',
        changes: [{ field: 'name', from: 'Shop', to: 'Shop front' }],
      }),
    ])
    const applied = await apply(renamed, true)
    expect(applied.summary).toMatchObject({ create: 0, update: 1, delete: 0 })
    expect((await apply(document())).summary).toMatchObject({ update: 1 })
  })

  it('prunes what the document no longer names', async () => {
    const without = document({ heartbeats: [] })
    expect((await plan(without)).changes).toEqual([])
    const planned = await plan(without, true)
    expect(planned.changes).toEqual([expect.objectContaining({ action: 'delete', kind: 'heartbeat', id: 'backup' })])
    await apply(without, true)
    expect(await listHeartbeats({ ctx: harness.ctx, caller, input: {} })).toEqual([])
  })

  it('reports a change the SSRF guard refuses and goes on; a re-run after the fix completes', async () => {
    const refused = document({
      heartbeats: [],
      channels: [
        { id: 'ops', name: 'Ops', provider: 'webhook', config: { url: 'https://1.1.1.1/guard' } },
        { id: 'internal', name: 'Internal', provider: 'webhook', config: { url: 'https://127.0.0.1:9/hook' } },
      ],
      services: [
        { id: 'db', name: 'DB', protocol: 'tcp', protocolConfig: { host: 'db.example.com', port: 5432 } },
        { id: 'cache', name: 'Cache', protocol: 'tcp', protocolConfig: { host: 'cache.example.com', port: 6379 } },
      ],
    })
    const partial = await apply(refused)
    expect(partial.failed).toEqual([expect.objectContaining({ kind: 'channel', id: 'internal', action: 'create' })])
    expect(partial.applied).toEqual([expect.objectContaining({ kind: 'service', id: 'cache', action: 'create' })])
    const fixed = document({
      heartbeats: [],
      channels: [
        { id: 'ops', name: 'Ops', provider: 'webhook', config: { url: 'https://1.1.1.1/guard' } },
        { id: 'internal', name: 'Internal', provider: 'webhook', config: { url: 'https://8.8.8.8/hook' } },
      ],
      services: refused.services,
    })
    const rerun = await apply(fixed)
    expect(rerun.failed).toEqual([])
    expect(rerun.applied).toEqual([expect.objectContaining({ kind: 'channel', id: 'internal', action: 'create' })])
    expect((await plan(fixed)).changes).toEqual([])
  })

  it('exports a document that plan shows as no change', async () => {
    const exported = await exportConfig({ ctx: harness.ctx, caller })
    expect(exported.document).toMatchObject({
      version: 1,
      domains: [expect.objectContaining({ id: 'shop', name: 'Shop' })],
    })
    const values = Object.fromEntries(exported.secrets.map((secret) => [secret.variable, 'x']))
    const planned = await plan(resolveEnv(exported.document as Record<string, unknown>, values), true)
    expect(planned.changes).toEqual([])
  })

  it('never touches another organization', async () => {
    const other = userCaller('mallory', ['org-other'])
    const planned = await planConfig({
      ctx: harness.ctx,
      caller: other,
      input: { document: { version: 1 }, prune: true, pruneUnmanaged: true },
    })
    expect(planned.changes).toEqual([])
    const exported = await exportConfig({ ctx: harness.ctx, caller: other })
    expect(exported.document).toEqual({ version: 1 })
  })
})
