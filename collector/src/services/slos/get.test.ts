import { type CheckResult, DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import { collectorForTest, userCaller } from '../../test-support.ts'
import { createMaintenanceWindow } from '../maintenance-windows/create.ts'
import { storeResults } from '../results/store.ts'
import { monthBounds } from './arithmetic.ts'
import { createSlo } from './create.ts'
import { findSlo } from './find.ts'
import { getSlo } from './get.ts'
import { reportSlos } from './report.ts'
import { statusFrom, subjectMinutes } from './status.ts'
import { updateSlo } from './update.ts'

const ORG = DEFAULT_ORGANIZATION.id
const MINUTE = 60_000
const NOW = Math.floor(Date.now() / MINUTE) * MINUTE
const caller = userCaller('slo-owner', [ORG])

/** A check a minute at `location` over the last two hours, failing `failing` minutes ago. */
const checks = (monitorId: string, location: string, failing: (minutesAgo: number) => boolean, offsetSeconds = 0) =>
  Array.from(
    { length: 120 },
    (_, index): CheckResult => ({
      v: 1,
      id: newId(),
      monitorId,
      organizationId: ORG,
      location,
      kind: 'http',
      status: failing(120 - index) ? 'down' : 'up',
      startedAt: new Date(NOW - (120 - index) * MINUTE + offsetSeconds * 1000).toISOString(),
      responseTimeMs: 20,
      statusCode: failing(120 - index) ? 503 : 200,
    }),
  )

describe('an SLO computed from stored results', () => {
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
    ids.api = await domain('https://api.slo.example')
    ids.web = await domain('https://web.slo.example')
    // api: fra fails 60 to 51 minutes ago, nyc 55 to 46, sin never: two of three (the 50 % quorum)
    // from nyc's second failure (53 min 50 s ago) to fra's recovery (50 min ago): 4 bad minutes.
    // web, one location: fails 30 to 26 minutes ago, down from the second failure to the recovery: 4.
    await storeResults(harness.ctx.timeseries, [
      ...checks(ids.api, 'fra', (ago) => ago <= 60 && ago > 50),
      ...checks(ids.api, 'nyc', (ago) => ago <= 55 && ago > 45, 10),
      ...checks(ids.api, 'sin', () => false, 20),
      ...checks(ids.web, 'fra', (ago) => ago <= 30 && ago > 25),
    ])
    await createMaintenanceWindow(harness.ctx, caller, {
      title: 'api deploy',
      monitorId: ids.api,
      startsAt: new Date(NOW - 52 * MINUTE).toISOString(),
      endsAt: new Date(NOW - 51 * MINUTE).toISOString(),
    })
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('counts bad minutes by the location quorum and leaves the monitor’s maintenance out of the budget', async () => {
    const slo = await createSlo({
      ctx: harness.ctx,
      caller,
      input: {
        name: 'API availability',
        subject: { kind: 'monitor', id: ids.api! },
        objective: 99,
        window: { type: 'rolling', days: 1 },
      },
    })
    const detail = await getSlo({ ctx: harness.ctx, caller, input: { id: slo.id }, now: NOW })
    // 4 bad minutes, one of them under maintenance; 1,439 eligible minutes give 14.39 minutes of budget.
    expect(detail.status).toMatchObject({
      badMinutes: 3,
      goodMinutes: 1436,
      budgetMinutes: 14.39,
      remainingMinutes: 11.39,
      remainingPercent: 79.152,
    })
    // The last hour: 3 bad of 59 eligible minutes over a 1 % allowance.
    expect(detail.status.burnRates['1h']).toBe(5.085)
    expect(detail.status.burnDown.reduce((sum, day) => sum + day.badMinutes, 0)).toBe(3)
    expect(detail.burnAlerts).toHaveLength(2)
  })

  it('gives a calendar-month SLO the whole month’s budget', async () => {
    const slo = await createSlo({
      ctx: harness.ctx,
      caller,
      input: { name: 'API monthly', subject: { kind: 'monitor', id: ids.api! }, objective: 99.9 },
    })
    await updateSlo({ ctx: harness.ctx, caller, input: { id: slo.id, window: { type: 'calendar-month' } } })
    const detail = await getSlo({ ctx: harness.ctx, caller, input: { id: slo.id }, now: NOW })
    const date = new Date(NOW)
    const monthMinutes =
      (Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) -
        Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)) /
      MINUTE
    const inMonth = (minutesAgo: number) =>
      NOW - minutesAgo * MINUTE >= Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
    // The maintenance minute is left out of the month wherever it falls in it.
    expect(detail.status.budgetMinutes).toBeCloseTo((monthMinutes - (inMonth(52) ? 1 : 0)) / 1000, 3)
    expect(detail.window).toEqual({ type: 'calendar-month' })
  })

  it('takes a group down when a member is, a member under its own maintenance counting as up', async () => {
    const group = newId()
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.monitor_groups (id, organization_id, name, rule) VALUES ($1, $2, 'Storefront', 'any')`,
      [group, ORG],
    )
    await harness.ctx.sql.query('UPDATE monitoring.monitors SET group_id = $1 WHERE id = ANY($2)', [
      group,
      [ids.api, ids.web],
    ])
    const slo = await createSlo({
      ctx: harness.ctx,
      caller,
      input: {
        name: 'Storefront',
        subject: { kind: 'group', id: group },
        objective: 99.5,
        window: { type: 'rolling', days: 1 },
      },
    })
    const detail = await getSlo({ ctx: harness.ctx, caller, input: { id: slo.id }, now: NOW })
    expect(detail.subject).toEqual({ kind: 'group', id: group, name: 'Storefront' })
    expect(detail.status).toMatchObject({ badMinutes: 7, goodMinutes: 1433, budgetMinutes: 7.2 })
  })

  it('reports every SLO with the bad minutes it has alone, though the report reads them all at once', async () => {
    const month = new Date(NOW).toISOString().slice(0, 7)
    const window = monthBounds(month)
    const report = await reportSlos({ ctx: harness.ctx, caller, input: { month }, now: NOW })
    expect(report.slos.map((slo) => slo.subjectKind).sort()).toEqual(['group', 'monitor', 'monitor'])
    for (const slo of report.slos) {
      const alone = await subjectMinutes(harness.ctx, await findSlo(harness.ctx.sql, [ORG], slo.id), window, NOW)
      expect(slo.badMinutes).toBe(statusFrom(alone, slo.objective, window, Math.min(NOW, window.to)).badMinutes)
    }
    expect(report.slos.reduce((sum, slo) => sum + slo.badMinutes, 0)).toBeGreaterThan(0)
  })

  it('refuses a heartbeat, another organization’s monitor and a 100 % objective, naming the field', async () => {
    const other = userCaller('stranger', ['org-other'])
    await expect(
      createSlo({
        ctx: harness.ctx,
        caller: other,
        input: { name: 'x', subject: { kind: 'monitor', id: ids.api! }, objective: 99 },
      }),
    ).rejects.toThrow('subject.id: no such monitor')
    await expect(
      createSlo({
        ctx: harness.ctx,
        caller,
        input: { name: 'x', subject: { kind: 'monitor', id: ids.api! }, objective: 100 },
      }),
    ).rejects.toThrow(/objective must be below 100/)
  })
})
