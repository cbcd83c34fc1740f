import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resultFor } from '../../routes/test-helpers.ts'
import { collectorForTest, userCaller } from '../../test-support.ts'
import { applyResultsToState } from '../monitor-state/apply-results.ts'
import { readMonitorStates } from '../monitor-state/read.ts'
import { createService } from '../services/create.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('a probe that lost its own network', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  const caller = userCaller('alice', [ORG])
  const service = async (name: string) =>
    (
      await createService({
        ctx: harness.ctx,
        caller,
        input: { name, protocol: 'tcp', protocolConfig: { host: `${name}.example`, port: 443 } },
      })
    ).id
  const statusOf = async (id: string) => (await readMonitorStates(harness.ctx.sql, [id])).get(id)?.status

  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  it('pages for none of its monitors: its flagged failures leave the location as it was, the other location decides', async () => {
    const monitors = await Promise.all(['shop', 'blog', 'mail'].map(service))
    await applyResultsToState(
      harness.ctx.sql,
      monitors.flatMap((id) => ['fra', 'ams'].map((location) => resultFor(id, ORG, location, 300, 'up', 10))),
    )
    const degraded = monitors.flatMap((id) =>
      [200, 190, 180].map((secondsAgo) =>
        resultFor(id, ORG, 'fra', secondsAgo, 'down', 0, { errorKind: 'network', probeDegraded: true }),
      ),
    )
    const events = await applyResultsToState(harness.ctx.sql, [
      ...degraded,
      ...monitors.map((id) => resultFor(id, ORG, 'ams', 185, 'up', 10)),
    ])
    expect(events).toEqual([])
    for (const id of monitors) expect(await statusOf(id)).toBe('up')
    const { rows } = await harness.ctx.sql.query<{ status: string }>(
      `SELECT status FROM monitoring.monitor_location_state WHERE location = 'fra' AND monitor_id = ANY($1)`,
      [monitors],
    )
    expect(rows.map((row) => row.status)).toEqual(['up', 'up', 'up'])
  })

  it('still takes a monitor down when its failures carry no flag', async () => {
    const id = await service('api')
    await applyResultsToState(harness.ctx.sql, [resultFor(id, ORG, 'fra', 300, 'up', 10)])
    const events = await applyResultsToState(harness.ctx.sql, [
      resultFor(id, ORG, 'fra', 200, 'down', 0, { probeDegraded: true }),
      resultFor(id, ORG, 'fra', 190, 'down', 0),
      resultFor(id, ORG, 'fra', 180, 'down', 0),
    ])
    expect(events).toHaveLength(1)
    expect(await statusOf(id)).toBe('down')
  })
})
