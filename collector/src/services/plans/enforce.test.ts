import type { OrganizationPlan } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorForTest } from '../../test-support.ts'
import { enforcePlan } from './enforce.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

const free: OrganizationPlan['plan'] = {
  id: 'free',
  name: 'Free',
  limits: { monitors: 5, minIntervalSeconds: 300, locations: 1 },
}

/** enforcePlan on real PostgreSQL (PGlite), with the plan given instead of read from identity. */
describe('enforcePlan: locations per monitor', () => {
  let harness: Harness
  const ctx = () => ({
    sql: harness.ctx.sql,
    plans: { planOf: async (organizationId: string) => ({ organizationId, plan: free }) },
  })
  const write = (locations: string[]) =>
    enforcePlan(ctx(), { organizationId: 'org-a', adds: true, checkInterval: 300, locations }, async () => 'written')

  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  it('refuses more named locations than the plan allows, naming limit, value and plan', async () => {
    expect(await write(['fra'])).toBe('written')
    await expect(write(['fra', 'iad'])).rejects.toMatchObject({
      code: 'PLAN_LIMIT',
      message: expect.stringMatching(/Free plan \(free\) allows 1 location per monitor; the monitor names 2/),
      details: { limit: 'locations', value: 1, plan: 'free' },
    })
  })

  it("counts '*' as every location whose probes send heartbeats, at least one", async () => {
    expect(await write(['*'])).toBe('written')
    for (const location of ['fra', 'iad']) {
      await harness.ctx.sql.query(
        `INSERT INTO monitoring.probes (location, instance, version, last_heartbeat_at, heartbeat)
         VALUES ($1, $1, '0.1.0', now(), '{}')`,
        [location],
      )
    }
    await expect(write(['*'])).rejects.toMatchObject({
      code: 'PLAN_LIMIT',
      message: expect.stringContaining("'*' (every location) means 2"),
    })
  })

  it('an update that sets no locations and no interval is not checked against them', async () => {
    const update = enforcePlan(ctx(), { organizationId: 'org-a', adds: false }, async () => 'renamed')
    expect(await update).toBe('renamed')
  })
})
