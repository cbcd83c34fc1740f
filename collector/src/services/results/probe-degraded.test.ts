import { type CheckResult, DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import { collectorForTest, userCaller } from '../../test-support.ts'
import { createSlo } from '../slos/create.ts'
import { getSlo } from '../slos/get.ts'
import { selectRows } from './query.ts'
import { storeResults } from './store.ts'
import { aggregateWindow, uptimeOf } from './window.ts'

const ORG = DEFAULT_ORGANIZATION.id
const MINUTE = 60_000
const NOW = Math.floor(Date.now() / MINUTE) * MINUTE
const caller = userCaller('probe-owner', [ORG])

/** A check a minute over the last hour; minutes 30 to 21 ago fail, flagged degraded when `degraded`. */
const checks = (monitorId: string, degraded: boolean) =>
  Array.from({ length: 60 }, (_, index): CheckResult => {
    const ago = 60 - index
    const failing = ago <= 30 && ago > 20
    return {
      v: 1,
      id: newId(),
      monitorId,
      organizationId: ORG,
      location: 'fra',
      kind: 'http',
      status: failing ? 'down' : 'up',
      startedAt: new Date(NOW - ago * MINUTE).toISOString(),
      responseTimeMs: 20,
      statusCode: failing ? 503 : 200,
      ...(failing && degraded ? { probeDegraded: true as const } : {}),
    }
  })

describe('failures from a degraded probe', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    const domain = async (url: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/domains',
          headers: { authorization: `Bearer ${harness.apiKey}` },
          payload: { url },
        })
      ).json().data.id as string
    ids.flagged = await domain('https://flagged.probe.example')
    ids.real = await domain('https://real.probe.example')
    await storeResults(harness.ctx.timeseries, [...checks(ids.flagged!, true), ...checks(ids.real!, false)])
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('are stored with their flag', async () => {
    const rows = await selectRows<{ flagged: number }>(
      harness.ctx.timeseries,
      'SELECT sum(probe_degraded) AS flagged FROM check_results FINAL WHERE monitor_id = {id:String}',
      { id: ids.flagged! },
    )
    expect(Number(rows[0]?.flagged)).toBe(10)
  })

  it('spend no SLO budget, while the same failures from a healthy probe do', async () => {
    const status = async (id: string) => {
      const slo = await createSlo({
        ctx: harness.ctx,
        caller,
        input: {
          name: `SLO ${id}`,
          subject: { kind: 'monitor', id },
          objective: 99,
          window: { type: 'rolling', days: 1 },
        },
      })
      return (await getSlo({ ctx: harness.ctx, caller, input: { id: slo.id }, now: NOW })).status
    }
    expect((await status(ids.flagged!)).badMinutes).toBe(0)
    // Down from the second failure (29 min ago) to the recovery (20 min ago): 9 bad minutes.
    expect((await status(ids.real!)).badMinutes).toBe(9)
  })

  it.each(['raw', 'minute', 'hour'] as const)('are left out of the uptime read from %s results', async (source) => {
    const window = await aggregateWindow(harness.ctx.timeseries, [ORG], [ids.flagged!, ids.real!], 7200, { source })
    expect(window.get(ids.flagged!)).toMatchObject({ checks: 50, failures: 0 })
    expect(uptimeOf(window.get(ids.flagged!))).toBe(100)
    expect(uptimeOf(window.get(ids.real!))).toBe(83.33)
  })
})
