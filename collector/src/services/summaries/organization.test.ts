import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resultFor } from '../../routes/test-helpers.ts'
import { collectorForTest, refreshSummariesOf } from '../../test-support.ts'
import { createDomain } from '../domains/create.ts'
import { organizationDomainStats } from '../domains/organization-stats.ts'
import { applyResultsToState } from '../monitor-state/apply-results.ts'
import { deleteMonitor } from '../monitors/delete.ts'
import { storeResults } from '../results/store.ts'

const ORG = DEFAULT_ORGANIZATION.id
const caller = {
  principal: { kind: 'api_key' as const, id: 'test' },
  organizationId: ORG,
  organizationIds: [ORG],
  permissions: ['*:*'],
}

describe('organization totals', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  it("give the stats each domain's 24-hour uptime averaged, and stop counting a deleted domain at once", async () => {
    const create = async (name: string) =>
      (await createDomain({ ctx: harness.ctx, caller, input: { url: `https://${name}.example` } })).id
    const [flaky, steady] = [await create('flaky'), await create('steady')]
    await create('silent')
    const results = [
      resultFor(flaky, ORG, 'fra', 300, 'up', 100),
      resultFor(flaky, ORG, 'iad', 240, 'up', 200),
      resultFor(flaky, ORG, 'fra', 180, 'down', 300),
      resultFor(steady, ORG, 'fra', 120, 'up', 400),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)

    // flaky 66.67 %, steady 100 %; silent has no checks and stays out of the average.
    expect(await organizationDomainStats(harness.ctx, caller)).toEqual({
      total: 3,
      // One failed check is below the failure threshold: flaky is still up.
      up: 2,
      down: 0,
      unknown: 1,
      avgResponseTime: 250,
      avgUptime: 83.34,
    })
    await deleteMonitor({ ctx: harness.ctx, caller, input: { kind: 'domain', id: steady } })
    expect(await organizationDomainStats(harness.ctx, caller)).toMatchObject({
      total: 2,
      avgResponseTime: 200,
      avgUptime: 66.67,
    })
  })
})
