import { type CheckResult, DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import { collectorForTest, eventsSettled, startReactionsForTest, userCaller } from '../../test-support.ts'
import { storeResults } from '../results/store.ts'
import { evaluateBurnAlerts } from './burn.ts'
import { createSlo } from './create.ts'
import { getSlo } from './get.ts'

const ORG = DEFAULT_ORGANIZATION.id
const MINUTE = 60_000
const NOW = Math.floor(Date.now() / MINUTE) * MINUTE
const caller = userCaller('slo-owner', [ORG])

describe('SLO burn-rate alerts', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let domain: string
  let slo: string

  const sloIncidents = async () =>
    (
      await harness.ctx.sql.query<{ status: string; severity: string; title: string; resolved_at: Date | null }>(
        `SELECT status, severity, title, resolved_at FROM monitoring.incidents WHERE cause = 'slo' AND monitor_id = $1`,
        [domain],
      )
    ).rows

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    reactions = await startReactionsForTest(harness.ctx)
    domain = (
      await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers: { authorization: `Bearer ${harness.apiKey}` },
        payload: { url: 'https://checkout.burn.example', name: 'Checkout' },
      })
    ).json().data.id
    // One check a minute for two hours; the checks 3 and 2 minutes ago fail: down from the second
    // failure to the next success, one bad minute.
    await storeResults(
      harness.ctx.timeseries,
      Array.from({ length: 120 }, (_, index): CheckResult => {
        const ago = 120 - index
        return {
          v: 1,
          id: newId(),
          monitorId: domain,
          organizationId: ORG,
          location: 'fra',
          kind: 'http',
          status: ago === 3 || ago === 2 ? 'down' : 'up',
          startedAt: new Date(NOW - ago * MINUTE).toISOString(),
          responseTimeMs: 25,
          statusCode: 200,
        }
      }),
    )
    slo = (
      await createSlo({
        ctx: harness.ctx,
        caller,
        input: { name: 'Checkout availability', subject: { kind: 'monitor', id: domain }, objective: 99.9 },
      })
    ).id
  })
  afterAll(async () => {
    await reactions.stop()
    await app.close()
    await harness.close()
  })

  it('fires when the hour and the last five minutes both burn above 14.4, once, and opens an incident', async () => {
    // One bad minute: 16.7 over the hour and 200 over five minutes, against 14.4 (2 % of 30 days in 1 h).
    const fired = await evaluateBurnAlerts(harness.ctx, NOW)
    expect(fired).toEqual([`slo.burning:${slo}:${new Date(NOW).toISOString()}`])
    expect(await evaluateBurnAlerts(harness.ctx, NOW + 30_000)).toEqual([])
    await eventsSettled(harness.ctx)
    expect(await sloIncidents()).toEqual([
      expect.objectContaining({
        status: 'open',
        severity: 'critical',
        title: 'SLO Checkout availability is burning its error budget',
      }),
    ])
    const detail = await getSlo({ ctx: harness.ctx, caller, input: { id: slo }, now: NOW })
    expect(detail.burning).toMatchObject({ severity: 'critical', since: new Date(NOW).toISOString() })
  })

  it('clears once the short window is clean again, and resolves the incident', async () => {
    // Six minutes on, the last five minutes hold no bad minute: no alert fires any more.
    const later = NOW + 6 * MINUTE
    expect(await evaluateBurnAlerts(harness.ctx, later)).toEqual([
      `slo.recovered:${slo}:${new Date(later).toISOString()}`,
    ])
    expect(await evaluateBurnAlerts(harness.ctx, later + MINUTE)).toEqual([])
    await eventsSettled(harness.ctx)
    expect(await sloIncidents()).toEqual([expect.objectContaining({ status: 'resolved' })])
    const detail = await getSlo({ ctx: harness.ctx, caller, input: { id: slo }, now: later })
    expect(detail.burning).toBeNull()
  })
})
