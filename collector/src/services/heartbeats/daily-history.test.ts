import { DEFAULT_ORGANIZATION, type HeartbeatPing, newId, type Stoppable } from '@guard/shared'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import { consumeHeartbeatPings } from '../../ingest/consume-heartbeat-pings.ts'
import { consumeResults } from '../../ingest/consume-results.ts'
import { authenticateWithUsers, collectorForTest, userCaller, waitUntil } from '../../test-support.ts'
import { storeResults } from '../results/store.ts'
import { type HeartbeatDay, listHeartbeatDays, utcDates } from './daily-history.ts'
import { heartbeatResult } from './results.ts'
import { storePings } from './store-pings.ts'

const ORG = DEFAULT_ORGANIZATION.id
const DAY = 86_400_000

describe('GET /api/heartbeats/{id}/daily', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const consumers: Stoppable[] = []
  const get = (url: string, authorization = `Bearer ${harness.apiKey}`) =>
    app.inject({ method: 'GET', url, headers: { authorization } })
  const create = async (name: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/heartbeats',
        headers: { authorization: `Bearer ${harness.apiKey}` },
        payload: { name, every: 3600 },
      })
    ).json().data as { id: string; pingUrl: string }
  const daysOf = async (id: string, days: number) => {
    const response = await get(`/api/heartbeats/${id}/daily?days=${days}`)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data as HeartbeatDay[]
  }

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { stranger: userCaller('stranger', ['org-stranger']) }),
    })
  })
  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop()
    await app.close()
    await harness.close()
  })

  it('counts runs, failures, missed windows and run durations per UTC day, with empty days present', async () => {
    const heartbeat = await create('Nightly backup')
    const neighbour = await create('Another job')
    const today = Math.floor(Date.now() / DAY) * DAY
    const twoDaysAgo = today - 2 * DAY
    const result = (monitorId: string, at: number, up: boolean, errorKind?: 'missed' | 'failed') =>
      heartbeatResult({
        id: newId(),
        monitorId,
        organizationId: ORG,
        at,
        up,
        ...(errorKind ? { errorKind, error: errorKind } : {}),
      })
    await storeResults(harness.ctx.timeseries, [
      // The day before the range: left out.
      result(heartbeat.id, twoDaysAgo - 1, false, 'missed'),
      result(heartbeat.id, twoDaysAgo + 3_600_000, true),
      result(heartbeat.id, twoDaysAgo + 7_200_000, true),
      result(heartbeat.id, twoDaysAgo + 10_800_000, false, 'failed'),
      // The last millisecond of the day still belongs to it.
      result(heartbeat.id, today - DAY - 1, false, 'missed'),
      result(heartbeat.id, today + 1, true),
      result(heartbeat.id, today + 2, false, 'missed'),
      // Another heartbeat's results, the same days: never counted here.
      result(neighbour.id, twoDaysAgo + 3_600_000, false, 'missed'),
      result(neighbour.id, today + 3, false, 'missed'),
    ])
    const ping = (monitorId: string, at: number, durationMs: number | undefined, type: HeartbeatPing['type']) => ({
      ping: {
        v: 1 as const,
        id: newId(),
        monitorId,
        organizationId: ORG,
        type,
        receivedAt: new Date(at).toISOString(),
        method: 'POST',
        sourceIp: '192.0.2.7',
      },
      durationMs,
    })
    await storePings(
      harness.ctx.timeseries,
      [
        ping(heartbeat.id, twoDaysAgo - 1, 60_000, 'success'),
        ping(heartbeat.id, twoDaysAgo + 3_500_000, undefined, 'start'),
        ping(heartbeat.id, twoDaysAgo + 3_600_000, 1000, 'success'),
        ping(heartbeat.id, twoDaysAgo + 7_200_000, 3000, 'success'),
        ping(heartbeat.id, twoDaysAgo + 10_800_000, undefined, 'fail'),
        ping(neighbour.id, today + 3, 90_000, 'success'),
      ],
      new Set(),
    )

    const days = await daysOf(heartbeat.id, 3)
    const dates = utcDates(3, new Date())
    expect(days).toEqual([
      {
        date: dates[0],
        runs: 4,
        failures: 2,
        missed: 1,
        uptime: 50,
        avgRunSeconds: 2,
        // quantile(0.95) of 1 s and 3 s, interpolated as the heartbeat report does.
        p95RunSeconds: 2.9,
      },
      { date: dates[1], runs: 0, failures: 0, missed: 0, uptime: null, avgRunSeconds: null, p95RunSeconds: null },
      { date: dates[2], runs: 2, failures: 1, missed: 1, uptime: 50, avgRunSeconds: null, p95RunSeconds: null },
    ])
    expect(dates[2]).toBe(new Date().toISOString().slice(0, 10))

    const month = await daysOf(heartbeat.id, 30)
    expect(month).toHaveLength(30)
    expect(month.slice(-3)).toEqual(days)
    expect(month.slice(0, 26).every((day) => day.runs === 0 && day.uptime === null)).toBe(true)
    expect(month[26]).toMatchObject({ runs: 1, failures: 1, missed: 1, avgRunSeconds: 60 })
    const byDefault = (await get(`/api/heartbeats/${heartbeat.id}/daily`)).json().data as HeartbeatDay[]
    expect(byDefault).toEqual(month)

    // With raw results kept one day, only today's are surely all there: older days cannot say
    // what they missed, while their runs and failures (from the hourly rollups) stay.
    const shortRetention = { ...harness.ctx, env: { ...harness.ctx.env, GUARD_RETENTION_RAW_DAYS: 1 } }
    const caller = { ...userCaller('reader', [ORG]), organizationId: ORG }
    const kept = await listHeartbeatDays({ ctx: shortRetention, caller, input: { id: heartbeat.id, days: 3 } })
    expect(kept.map((day) => day.missed)).toEqual([null, null, 1])
    expect(kept.map((day) => day.runs)).toEqual([4, 0, 2])
  })

  it('shows a run pinged through the real ingest in today’s row', async () => {
    consumers.push(await consumeHeartbeatPings(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }))
    consumers.push(await consumeResults(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }))
    const heartbeat = await create('Queue worker')
    const path = new URL(heartbeat.pingUrl).pathname
    expect((await app.inject({ method: 'POST', url: `${path}/start` })).statusCode).toBe(200)
    expect((await app.inject({ method: 'POST', url: `${path}/0`, payload: 'done' })).statusCode).toBe(200)
    let today: HeartbeatDay | undefined
    await waitUntil(async () => {
      today = (await daysOf(heartbeat.id, 1))[0]
      return today?.runs === 1 && today.avgRunSeconds !== null
    }, 'the run in today’s row')
    expect(today).toMatchObject({ runs: 1, failures: 0, missed: 0, uptime: 100 })
    expect(today!.avgRunSeconds).toBeGreaterThanOrEqual(0)
  })

  it('answers one CSV row per day with format=csv or Accept: text/csv, the name quoted and null as an empty cell', async () => {
    const name = 'Backup "db", nightly\nmain'
    const heartbeat = await create(name)
    const today = Math.floor(Date.now() / DAY) * DAY
    await storeResults(harness.ctx.timeseries, [
      heartbeatResult({ id: newId(), monitorId: heartbeat.id, organizationId: ORG, at: today + 1, up: true }),
      heartbeatResult({
        id: newId(),
        monitorId: heartbeat.id,
        organizationId: ORG,
        at: today + 2,
        up: false,
        errorKind: 'missed',
        error: 'missed',
      }),
    ])
    const json = await daysOf(heartbeat.id, 2)
    const csv = await get(`/api/heartbeats/${heartbeat.id}/daily?days=2&format=csv`)
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toBe('attachment; filename="backup-db-nightly-main-daily-2d.csv"')
    const [header, ...lines] = csv.body.trimEnd().split('\n')
    expect(header).toBe('heartbeat,date,runs,failures,missed,uptime,avgRunSeconds,p95RunSeconds')
    // The quote doubled, the comma and line break kept inside one quoted cell.
    expect(csv.body).toContain('"Backup ""db"", nightly\nmain"')
    expect(lines).toHaveLength(4)
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>
    const cell = (value: number | null) => (value === null ? '' : String(value))
    expect(rows).toEqual(
      json.map((day) => ({
        heartbeat: name,
        date: day.date,
        runs: cell(day.runs),
        failures: cell(day.failures),
        missed: cell(day.missed),
        uptime: cell(day.uptime),
        avgRunSeconds: cell(day.avgRunSeconds),
        p95RunSeconds: cell(day.p95RunSeconds),
      })),
    )
    expect(rows.map((row) => [row.runs, row.failures, row.missed, row.uptime, row.avgRunSeconds])).toEqual([
      ['0', '0', '0', '', ''],
      ['2', '1', '1', '50', ''],
    ])

    const accepted = await app.inject({
      method: 'GET',
      url: `/api/heartbeats/${heartbeat.id}/daily?days=2`,
      headers: { authorization: `Bearer ${harness.apiKey}`, accept: 'text/csv' },
    })
    expect(accepted.headers['content-type']).toMatch(/^text\/csv/)
    expect(accepted.body).toBe(csv.body)
    const explicitJson = await app.inject({
      method: 'GET',
      url: `/api/heartbeats/${heartbeat.id}/daily?days=2&format=json`,
      headers: { authorization: `Bearer ${harness.apiKey}`, accept: 'text/csv' },
    })
    expect(explicitJson.json().data).toEqual(json)
    const stranger = await get(`/api/heartbeats/${heartbeat.id}/daily?format=csv`, 'Bearer user:stranger')
    expect(stranger.statusCode).toBe(404)
    expect(stranger.body).not.toContain('Backup')
    expect((await get(`/api/heartbeats/${heartbeat.id}/daily?format=xml`)).statusCode).toBe(400)

    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>
    }
    const daily = document.paths['/api/heartbeats/{id}/daily']!.get
    expect(Object.keys(daily.responses['200']!.content)).toEqual(['application/json', 'text/csv'])
  })

  it('answers 404 for another organization’s heartbeat and an unknown id, 400 for a range it does not keep', async () => {
    const heartbeat = await create('Private job')
    const stranger = await get(`/api/heartbeats/${heartbeat.id}/daily`, 'Bearer user:stranger')
    expect(stranger.statusCode).toBe(404)
    expect(stranger.body).not.toContain('Private job')
    expect((await get('/api/heartbeats/no-such-heartbeat/daily')).statusCode).toBe(404)
    for (const days of ['0', '91', 'x', '1.5']) {
      const response = await get(`/api/heartbeats/${heartbeat.id}/daily?days=${days}`)
      expect(response.statusCode, days).toBe(400)
      expect(response.json().message).toContain('days')
    }
  })
})
