import { createLogger, openTestRelationalStore, type RelationalStore, signServiceToken } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIdentityApp } from '../../app.ts'
import { migrateIdentity } from '../../server.ts'
import { importCatalog } from '../catalog/import.ts'
import { seedCatalog } from '../catalog/seed.ts'
import { bundledCatalog } from '../catalog/static.ts'
import { resolveDefaultPlan } from '../plans/default-plan.ts'
import { createOrganization } from './create.ts'
import { getOrganizationPlan } from './get-plan.ts'
import { setOrganizationPlan } from './set-plan.ts'

const log = createLogger({ name: 'plan-test', level: 'silent', pretty: false })
const SECRET = 'plan-test-secret-key-plan-test-secret-key'
const operator = { kind: 'operator' as const, id: 'test' }
let sql: RelationalStore
let app: Awaited<ReturnType<typeof buildIdentityApp>>

beforeAll(async () => {
  sql = await openTestRelationalStore()
  await migrateIdentity(sql)
  await seedCatalog(sql)
  app = await buildIdentityApp({ log, internal: { sql, secretKey: SECRET } })
})
afterAll(async () => {
  await app?.close()
  await sql?.close()
})

const freeLimits = bundledCatalog.document.plans.find((plan) => plan.id === 'free')!.limits

describe('organization plans', () => {
  it('an organization created without a plan has none, so no limits', async () => {
    const organization = await createOrganization(sql, { name: 'Self hosted', slug: 'self-hosted' })
    expect(organization.plan).toBeNull()
    expect(await getOrganizationPlan(sql, log, organization.id)).toEqual({
      organizationId: organization.id,
      plan: null,
    })
  })

  it('GUARD_DEFAULT_PLAN must name a catalog plan; unset means none', async () => {
    expect(await resolveDefaultPlan(sql, log, {})).toBeNull()
    expect(await resolveDefaultPlan(sql, log, { GUARD_DEFAULT_PLAN: 'free' })).toBe('free')
    await expect(resolveDefaultPlan(sql, log, { GUARD_DEFAULT_PLAN: 'gold' })).rejects.toThrow(
      /identity: GUARD_DEFAULT_PLAN: 'gold' is not a plan of the catalog \(known: free, pro, business\)/,
    )
  })

  it('setOrganizationPlan puts an organization (by id or slug) on a catalog plan, with its limits, and back on none', async () => {
    const { id } = await createOrganization(sql, { name: 'Acme', slug: 'acme', plan: 'free' })
    expect(await getOrganizationPlan(sql, log, id)).toEqual({
      organizationId: id,
      plan: { id: 'free', name: 'Free', limits: freeLimits },
    })
    await setOrganizationPlan({ ctx: { sql, log }, caller: operator, input: { organization: 'acme', plan: 'pro' } })
    expect((await getOrganizationPlan(sql, log, id)).plan?.limits.monitors).toBe(50)
    expect(
      await setOrganizationPlan({ ctx: { sql, log }, caller: operator, input: { organization: id, plan: null } }),
    ).toMatchObject({ id, slug: 'acme', plan: null })
    expect((await getOrganizationPlan(sql, log, id)).plan).toBeNull()
  })

  it('refuses a plan outside the catalog and an unknown organization, naming each', async () => {
    const set = (organization: string, plan: string | null) =>
      setOrganizationPlan({ ctx: { sql, log }, caller: operator, input: { organization, plan } })
    await expect(set('acme', 'gold')).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: /plan: 'gold'/ })
    await expect(set('nobody', 'free')).rejects.toMatchObject({ code: 'NOT_FOUND', message: /nobody/ })
    await expect(set('', 'free')).rejects.toThrow()
  })

  describe('GET /api/v1/internal/organizations/{id}/plan', () => {
    const get = async (id: string, authorization?: string) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/internal/organizations/${id}/plan`,
        headers: authorization ? { authorization } : {},
      })

    it('answers a caller holding a service token signed with the same secret key', async () => {
      const { id } = await createOrganization(sql, { name: 'Beta', slug: 'beta', plan: 'free' })
      const response = await get(id, `Bearer ${await signServiceToken(SECRET, 'collector')}`)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ organizationId: id, plan: { id: 'free', name: 'Free', limits: freeLimits } })
    })

    it('refuses no token, a user-looking token and a token of another secret key with 401 problem+json', async () => {
      const { id } = await createOrganization(sql, { name: 'Gamma', slug: 'gamma' })
      for (const authorization of [
        undefined,
        'Bearer nonsense',
        `Bearer ${await signServiceToken('another-secret-key-another-secret-key-x', 'collector')}`,
      ]) {
        const response = await get(id, authorization)
        expect(response.statusCode).toBe(401)
        expect(response.headers['content-type']).toContain('application/problem+json')
        expect(response.body).not.toContain('Gamma')
      }
    })

    it('404 for an unknown organization; 409 once its plan left the catalog', async () => {
      const token = `Bearer ${await signServiceToken(SECRET, 'collector')}`
      expect((await get('no-such-org', token)).statusCode).toBe(404)
      const { id } = await createOrganization(sql, { name: 'Delta', slug: 'delta', plan: 'business' })
      await importCatalog(sql, { ...bundledCatalog.document, plans: bundledCatalog.document.plans.slice(0, 2) })
      const response = await get(id, token)
      expect(response.statusCode).toBe(409)
      expect(response.json().detail).toMatch(/'business' is not in the published catalog/)
    })
  })
})
