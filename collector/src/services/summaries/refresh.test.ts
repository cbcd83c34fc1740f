import { type CheckResult, DEFAULT_ORGANIZATION, encodeCheckResult, resultSubject } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consumeResults, type IngestStats } from '../../ingest/consume-results.ts'
import { scheduleSummarySweep } from '../../jobs/summary-refresher.ts'
import { resultFor } from '../../routes/test-helpers.ts'
import { collectorForTest, refreshSummariesOf } from '../../test-support.ts'
import { createDomain } from '../domains/create.ts'
import { organizationDomainStats } from '../domains/organization-stats.ts'
import { applyResultsToState } from '../monitor-state/apply-results.ts'
import { deleteMonitor } from '../monitors/delete.ts'
import { selectRows } from '../results/query.ts'
import { storeResults } from '../results/store.ts'
import { readDays, readLastDay } from './read.ts'
import { refreshMonitorSummaries, scopeOfResults, utcDay } from './refresh.ts'

const ORG = DEFAULT_ORGANIZATION.id
const HOUR = 3600
const caller = {
  principal: { kind: 'api_key' as const, id: 'test' },
  organizationId: ORG,
  organizationIds: [ORG],
  permissions: ['*:*'],
}

describe('monitor summaries', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  beforeAll(async () => {
    harness = await collectorForTest()
  })
  afterAll(() => harness.close())

  const newDomain = async (name: string) =>
    (await createDomain({ ctx: harness.ctx, caller, input: { url: `https://${name}.example` } })).id
  const summaryRows = async (id: string) =>
    (
      await harness.ctx.sql.query<{ location: string; checks: number; failures: number; rt_sum: number }>(
        'SELECT location, checks, failures, rt_sum FROM monitoring.monitor_summary WHERE monitor_id = $1 ORDER BY location',
        [id],
      )
    ).rows
  const dailyRows = async (id: string) =>
    (
      await harness.ctx.sql.query<{ day: string; location: string; checks: number; failures: number }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, location, checks, failures FROM monitoring.monitor_daily
          WHERE monitor_id = $1 ORDER BY day, location`,
        [id],
      )
    ).rows

  it('counts a redelivered and a late result once, through the ingest', async () => {
    const id = await newDomain('summary-once')
    const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
    const consumer = await consumeResults(harness.ctx, stats)
    const publish = async (result: CheckResult, msgId = result.id) =>
      harness.ctx.bus.publish(resultSubject(result.location), encodeCheckResult(result), { msgId })
    const recent = [resultFor(id, ORG, 'fra', 120, 'up', 100), resultFor(id, ORG, 'fra', 60, 'down', 300)]
    for (const result of recent) await publish(result)
    await publish(recent[1]!, `${recent[1]!.id}-redelivered`)
    // Late: a probe's outbox replaying a check from three days ago, after newer ones were counted.
    const late = resultFor(id, ORG, 'iad', 3 * 24 * HOUR, 'down', 500)
    await publish(late)
    await publish(late, `${late.id}-again`)
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000
      const poll = () =>
        stats.stored >= 5 ? resolve() : Date.now() > deadline ? reject(new Error('ingest')) : setTimeout(poll, 20)
      poll()
    })
    await consumer.stop()

    expect(await summaryRows(id)).toEqual([{ location: 'fra', checks: 2, failures: 1, rt_sum: 400 }])
    const lateDay = utcDay(Date.parse(late.startedAt))
    const days = await dailyRows(id)
    expect(days.find((row) => row.day === lateDay)).toEqual({ day: lateDay, location: 'iad', checks: 1, failures: 1 })
    expect(days.reduce((sum, row) => sum + row.checks, 0)).toBe(3)
    expect((await readDays(harness.ctx.sql, [id], 7)).get(id)).toMatchObject({ checks: 3, failures: 2 })
  })

  it('equals what ClickHouse computes from the raw results, per location and per day', async () => {
    const ids = [await newDomain('summary-a'), await newDomain('summary-b')]
    const results = ids.flatMap((id, monitor) =>
      ['fra', 'iad', 'sin'].flatMap((location, place) =>
        // Every 37 minutes over five days: some inside the last 24 hours, some on each earlier day.
        Array.from({ length: 5 * 39 }, (_, step) =>
          resultFor(
            id,
            ORG,
            location,
            60 + step * 37 * 60,
            (step + monitor + place) % 7 === 0 ? 'down' : 'up',
            50 + ((step * 13 + place * 7) % 400),
          ),
        ),
      ),
    )
    await storeResults(harness.ctx.timeseries, results)
    const scope = scopeOfResults(results)!
    await refreshMonitorSummaries({ sql: harness.ctx.sql, timeseries: harness.ctx.timeseries, input: scope })

    const rawLastDay = await selectRows<{
      monitor_id: string
      location: string
      checks: string
      failures: string
      rt: number
    }>(
      harness.ctx.timeseries,
      `SELECT monitor_id, location, count() AS checks, countIf(status = 'down') AS failures, sum(response_time_ms) AS rt
         FROM check_results FINAL
        WHERE monitor_id IN {ids:Array(String)} AND started_at >= toStartOfMinute(now() - INTERVAL 24 HOUR)
        GROUP BY monitor_id, location ORDER BY monitor_id, location`,
      { ids },
    )
    for (const id of ids) {
      expect(await summaryRows(id)).toEqual(
        rawLastDay
          .filter((row) => row.monitor_id === id)
          .map((row) => ({
            location: row.location,
            checks: Number(row.checks),
            failures: Number(row.failures),
            rt_sum: Number(row.rt),
          })),
      )
    }
    const rawDays = await selectRows<{
      monitor_id: string
      day: string
      location: string
      checks: string
      failures: string
    }>(
      harness.ctx.timeseries,
      `SELECT monitor_id, toString(toDate(started_at)) AS day, location, count() AS checks, countIf(status = 'down') AS failures
         FROM check_results FINAL WHERE monitor_id IN {ids:Array(String)}
        GROUP BY monitor_id, day, location ORDER BY monitor_id, day, location`,
      { ids },
    )
    for (const id of ids) {
      expect(await dailyRows(id)).toEqual(
        rawDays
          .filter((row) => row.monitor_id === id)
          .map((row) => ({
            day: row.day,
            location: row.location,
            checks: Number(row.checks),
            failures: Number(row.failures),
          })),
      )
    }
    const lastDay = (await readLastDay(harness.ctx.sql, ids)).get(ids[0]!)
    expect(lastDay?.checks).toBe(
      rawLastDay.filter((row) => row.monitor_id === ids[0]).reduce((sum, row) => sum + Number(row.checks), 0),
    )
  })

  it('fills in at start what a collector stored but did not summarize before it stopped', async () => {
    const id = await newDomain('summary-restart')
    const results = [resultFor(id, ORG, 'fra', 300, 'up', 80), resultFor(id, ORG, 'sin', 2 * 24 * HOUR, 'down', 90)]
    // Stored, then the process died before its refresher ran: no summary yet.
    await storeResults(harness.ctx.timeseries, results)
    expect(await summaryRows(id)).toEqual([])

    const sweep = scheduleSummarySweep(harness.ctx)
    await sweep.refresher.settled()
    await sweep.stop()
    expect(await summaryRows(id)).toEqual([{ location: 'fra', checks: 1, failures: 0, rt_sum: 80 }])
    expect((await dailyRows(id)).map((row) => [row.location, row.checks, row.failures])).toEqual([
      ['sin', 1, 1],
      ['fra', 1, 0],
    ])
  })
})

describe('the periodic sweep', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_SUMMARY_SWEEP_SECONDS: '1' })
  })
  afterAll(() => harness.close())

  it('recomputes the monitors no refresh rewrote within the sweep interval and leaves the fresh ones alone', async () => {
    const ids: string[] = []
    for (const name of ['sweep-idle', 'sweep-busy']) {
      const id = (await createDomain({ ctx: harness.ctx, caller, input: { url: `https://${name}.example` } })).id
      ids.push(id)
      await storeResults(harness.ctx.timeseries, [resultFor(id, ORG, 'fra', 300, 'up', 80)])
    }
    const [idle, busy] = ids as [string, string]
    const sweep = scheduleSummarySweep(harness.ctx)
    try {
      await sweep.refresher.settled()
      // The idle monitor's copy was last rewritten long ago and is now wrong (as when its window slid);
      // the busy one's was rewritten just now by a refresh, and is marked so it shows if swept again.
      await harness.ctx.sql.query(
        `UPDATE monitoring.monitor_summary SET checks = 99, refreshed_at = now() - interval '1 hour' WHERE monitor_id = $1`,
        [idle],
      )
      await harness.ctx.sql.query(
        `UPDATE monitoring.monitor_summary SET checks = 77, refreshed_at = now() + interval '1 hour' WHERE monitor_id = $1`,
        [busy],
      )
      const checksOf = async (id: string) =>
        (
          await harness.ctx.sql.query<{ checks: number }>(
            'SELECT checks FROM monitoring.monitor_summary WHERE monitor_id = $1',
            [id],
          )
        ).rows[0]?.checks
      for (let attempt = 0; attempt < 200 && (await checksOf(idle)) !== 1; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      expect(await checksOf(idle)).toBe(1)
      expect(await checksOf(busy)).toBe(77)
    } finally {
      await sweep.stop()
    }
  })
})

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
