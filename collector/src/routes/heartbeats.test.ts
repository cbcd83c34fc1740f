import { DEFAULT_ORGANIZATION, type HeartbeatPing, type Stoppable } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { consumeHeartbeatPings } from '../ingest/consume-heartbeat-pings.ts'
import { consumeResults } from '../ingest/consume-results.ts'
import { applyPings } from '../services/heartbeats/apply-pings.ts'
import { detectHeartbeatDeadlines } from '../services/heartbeats/detect-deadlines.ts'
import { collectorForTest } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>
interface View {
  id: string
  status: string
  pingUrl: string
  nextExpectedAt: string
  nextExpectedTimes: string[]
  lastError?: { kind: string; message: string }
  lastPing: { type: string } | null
  runningSince: string | null
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('heartbeats API and pings', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const consumers: Stoppable[] = []
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) })
  const pathOf = (view: View) => new URL(view.pingUrl).pathname
  const view = async (id: string) => (await call('GET', `/api/heartbeats/${id}`)).json().data as View

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_PING_MAX_PER_MINUTE: '40' })
    app = await buildCollectorApp(harness.ctx)
    consumers.push(await consumeHeartbeatPings(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }))
    consumers.push(await consumeResults(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }))
  })
  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop()
    await app.close()
    await harness.close()
  })

  it('creates, reads, lists, changes and deletes a heartbeat, with its ping URL shown again on read', async () => {
    const created = await call('POST', '/api/heartbeats', {
      name: 'Nightly backup',
      cron: '0 3 * * *',
      timezone: 'Europe/Amsterdam',
      grace: 600,
      maxDuration: 3600,
      tags: ['backup'],
    })
    expect(created.statusCode).toBe(201)
    const heartbeat = created.json().data as View & { cron: string; timezone: string }
    expect(heartbeat).toMatchObject({ cron: '0 3 * * *', timezone: 'Europe/Amsterdam', status: 'unknown', every: null })
    expect(heartbeat.pingUrl).toMatch(/\/ping\/[A-Za-z0-9_-]{32}$/)
    expect(heartbeat.nextExpectedTimes).toHaveLength(5)
    expect((await view(heartbeat.id)).pingUrl).toBe(heartbeat.pingUrl)
    const listed = (await call('GET', '/api/heartbeats')).json().data as View[]
    expect(listed.map((entry) => entry.id)).toContain(heartbeat.id)

    const changed = await call('PATCH', `/api/heartbeats/${heartbeat.id}`, { every: 300, name: 'Hourly' })
    expect(changed.statusCode).toBe(200)
    expect(changed.json().data).toMatchObject({ every: 300, cron: null, name: 'Hourly', maxDuration: 3600 })

    expect((await app.inject({ method: 'GET', url: pathOf(heartbeat) })).statusCode).toBe(200)
    expect((await call('DELETE', `/api/heartbeats/${heartbeat.id}`)).statusCode).toBe(200)
    expect((await call('GET', `/api/heartbeats/${heartbeat.id}`)).statusCode).toBe(404)
    expect((await app.inject({ method: 'GET', url: pathOf(heartbeat) })).statusCode).toBe(404)
  })

  it('refuses schedules it cannot keep, with 400 and the reason', async () => {
    for (const [body, words] of [
      [{ name: 'x' }, 'every'],
      [{ name: 'x', every: 60, cron: '* * * * *' }, 'not both'],
      [{ name: 'x', cron: '61 * * * *' }, 'cron'],
      [{ name: 'x', cron: '0 3 * * *', timezone: 'Mars/Olympus' }, 'unknown time zone'],
      [{ name: 'x', every: 1 }, 'every'],
    ] as const) {
      const response = await call('POST', '/api/heartbeats', body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().message).toContain(words)
    }
  })

  it('takes pings to state: up, missed, failed, exit code, too long, and up again', async () => {
    const heartbeat = (
      await call('POST', '/api/heartbeats', { name: 'Worker', every: 60, grace: 10, maxDuration: 30 })
    ).json().data as View
    const ping = (suffix = '', method: 'GET' | 'POST' | 'HEAD' = 'GET', payload?: string) =>
      app.inject({ method, url: `${pathOf(heartbeat)}${suffix}`, ...(payload ? { payload } : {}) })
    const settles = (status: string, kind?: string) =>
      eventually(
        async () => {
          const current = await view(heartbeat.id)
          return current.status === status && (kind === undefined || current.lastError?.kind === kind)
            ? current
            : undefined
        },
        `${status} ${kind ?? ''}`,
      )

    const first = await ping('', 'POST', 'backup done: 12 GB')
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ success: true, data: { received: true } })
    await settles('up')

    // The deadline job with the clock moved past the next expected time plus grace.
    const late = new Date(Date.parse((await view(heartbeat.id)).nextExpectedAt) + 11_000)
    const missed = await detectHeartbeatDeadlines(harness.ctx, late)
    expect(missed.map((result) => result.errorKind)).toEqual(['missed'])
    expect(await detectHeartbeatDeadlines(harness.ctx, late)).toEqual([])
    await settles('down', 'missed')

    expect((await ping('')).statusCode).toBe(200)
    await settles('up')
    expect((await ping('/fail')).statusCode).toBe(200)
    await settles('down', 'failed')
    expect((await ping('/0')).statusCode).toBe(200)
    await settles('up')
    expect((await ping('/3', 'HEAD')).statusCode).toBe(200)
    const exited = await settles('down', 'exit_code')
    expect(exited.lastError?.message).toContain('code 3')
    expect((await ping('')).statusCode).toBe(200)
    await settles('up')

    expect((await ping('/start?rid=run-1')).statusCode).toBe(200)
    const running = await eventually(async () => (await view(heartbeat.id)).runningSince ?? undefined, 'a run')
    const tooLong = await detectHeartbeatDeadlines(harness.ctx, new Date(Date.parse(running) + 31_000))
    expect(tooLong.map((result) => result.errorKind)).toEqual(['too_long'])
    await settles('down', 'too_long')
    expect((await ping('?rid=run-1')).statusCode).toBe(200)
    await settles('up')

    const log = await eventually(async () => {
      const entries = (await call('GET', `/api/heartbeats/${heartbeat.id}/pings`)).json().data as Array<{
        type: string
        body: string
        method: string
      }>
      return entries.length >= 8 ? entries : undefined
    }, 'the run log')
    expect(log.at(-1)).toMatchObject({ type: 'success', body: 'backup done: 12 GB', method: 'POST' })
    // A run timed from its start to its end (run-1's end had no open run left: too long closed it).
    expect((await ping('/start?rid=run-2')).statusCode).toBe(200)
    expect((await ping('?rid=run-2')).statusCode).toBe(200)
    const report = await eventually(async () => {
      const answer = (await call('GET', '/api/reports/heartbeats?range=24h')).json().data
      const row = answer.heartbeats.find((entry: { id: string }) => entry.id === heartbeat.id)
      return row?.runs >= 10 ? row : undefined
    }, 'the report')
    // 8 ended runs, the missed window and the run too long; missed, fail, exit 3 and too long failed.
    expect(report).toMatchObject({ schedule: 'every 60 s', runs: 10, failures: 4, incidents: 0 })
    expect(report.avgRunSeconds).toBeGreaterThanOrEqual(0)
    const csv = await app.inject({ method: 'GET', url: '/api/reports/heartbeats?format=csv', headers: headers() })
    expect(csv.body.split('\n')[0]).toBe(
      'id,name,schedule,runs,failures,uptime,avgRunSeconds,p95RunSeconds,incidents,downtimeSeconds',
    )
    const dashboard = (await call('GET', '/api/dashboard/stats')).json().data
    expect(dashboard.heartbeats.up).toBeGreaterThanOrEqual(1)
    expect(dashboard.heartbeats.total).toBeGreaterThanOrEqual(dashboard.heartbeats.up + dashboard.heartbeats.down)
    expect(log.map((entry) => entry.type)).toEqual([
      'success',
      'start',
      'success',
      'exit',
      'success',
      'fail',
      'success',
      'success',
    ])
    expect(log.find((entry) => entry.type === 'exit')?.method).toBe('HEAD')
  })

  it('shows a heartbeat on a public status page as a component with its state', async () => {
    const heartbeat = (await call('POST', '/api/heartbeats', { name: 'Backups', every: 3600 })).json().data as View
    expect((await app.inject({ method: 'POST', url: pathOf(heartbeat) })).statusCode).toBe(200)
    await eventually(async () => ((await view(heartbeat.id)).status === 'up' ? true : undefined), 'up')
    const page = (await call('POST', '/api/status-pages', { name: 'Jobs', slug: 'jobs-page', isPublic: true })).json()
      .data as { id: string }
    const added = await call('POST', `/api/status-pages/${page.id}/heartbeats`, {
      heartbeatId: heartbeat.id,
      displayName: 'Nightly backups',
    })
    expect(added.statusCode).toBe(201)
    expect(added.json().data.components).toMatchObject([{ kind: 'heartbeat', subjectId: heartbeat.id }])
    expect((await call('POST', `/api/status-pages/${page.id}/heartbeats`, { heartbeatId: 'nope' })).statusCode).toBe(
      404,
    )
    const visitor = await app.inject({ method: 'GET', url: '/api/status-pages/jobs-page/public' })
    expect(visitor.json().data.components).toMatchObject([{ name: 'Nightly backups', kind: 'heartbeat', status: 'up' }])
  })

  it('counts heartbeats toward the plan’s monitor limit, and shows them in the usage', async () => {
    const { rows } = await harness.ctx.sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM monitoring.monitors WHERE organization_id = $1',
      [DEFAULT_ORGANIZATION.id],
    )
    const plans = harness.ctx.plans
    const plan = { id: 'tiny', name: 'Tiny', limits: { monitors: rows[0]!.count + 1 } }
    harness.ctx.plans = { ...plans, planOf: async (organizationId: string) => ({ organizationId, plan }) }
    try {
      expect((await call('POST', '/api/heartbeats', { name: 'Fits', every: 60 })).statusCode).toBe(201)
      const refused = await call('POST', '/api/heartbeats', { name: 'One too many', every: 60 })
      expect(refused.statusCode).toBe(403)
      expect(refused.json().error).toBe('PLAN_LIMIT')
      const usage = (await call('GET', '/api/usage')).json().data.usage
      expect(usage).toMatchObject({ monitors: rows[0]!.count + 1 })
      expect(usage.heartbeats).toBeGreaterThan(0)
    } finally {
      harness.ctx.plans = plans
    }
  })

  it('loses no ping it answered 200 in a burst from many tokens, and refuses the rest of a token with 429', async () => {
    const burst = await Promise.all(
      Array.from(
        { length: 20 },
        async (_, index) =>
          (await call('POST', '/api/heartbeats', { name: `Burst ${index}`, every: 3600 })).json().data as View,
      ),
    )
    // 50 pings per token at once: 40 fit this app's limit per minute, 10 are refused (more fit when
    // the burst straddles a minute).
    const answers = await Promise.all(
      burst.flatMap((heartbeat) =>
        Array.from({ length: 50 }, () => app.inject({ method: 'POST', url: pathOf(heartbeat), payload: 'x' })),
      ),
    )
    const accepted = answers.filter((answer) => answer.statusCode === 200).length
    const refused = answers.filter((answer) => answer.statusCode === 429)
    expect(accepted + refused.length).toBe(1000)
    expect(accepted).toBeGreaterThanOrEqual(800)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every((answer) => Number(answer.headers['retry-after']) >= 1)).toBe(true)
    const count = async () => {
      const result = await harness.ctx.timeseries.client.query({
        query: 'SELECT count() AS n FROM heartbeat_pings FINAL WHERE monitor_id IN {ids:Array(String)}',
        query_params: { ids: burst.map((heartbeat) => heartbeat.id) },
        format: 'JSONEachRow',
      })
      return Number((await result.json<{ n: string }>())[0]?.n)
    }
    expect(await eventually(async () => ((await count()) >= accepted ? count() : undefined), 'every ping stored')).toBe(
      accepted,
    )
  })

  it('logs a ping older than the state (another replica’s clock) without letting it change the state', async () => {
    const { id } = (await call('POST', '/api/heartbeats', { name: 'Skewed', every: 3600 })).json().data as View
    const ping = (type: 'success' | 'fail', at: number): HeartbeatPing => ({
      v: 1,
      id: `skew-${type}-${at}`,
      monitorId: id,
      organizationId: DEFAULT_ORGANIZATION.id,
      type,
      receivedAt: new Date(at).toISOString(),
      method: 'POST',
      sourceIp: '127.0.0.1',
    })
    const now = Date.now()
    const first = await applyPings(harness.ctx.sql, [ping('success', now)], async () => {})
    expect(first.results.map((result) => result.status)).toEqual(['up'])
    const older = await applyPings(harness.ctx.sql, [ping('fail', now - 5)], async () => {})
    expect(older.results).toEqual([])
    expect(older.stored.map((entry) => entry.ping.type)).toEqual(['fail'])
  })

  it('declares a missed window once when two replicas run the deadline job at the same moment', async () => {
    const { id, nextExpectedAt } = (
      await call('POST', '/api/heartbeats', { name: 'Twice', every: 3600, grace: 0 })
    ).json().data as View
    const late = new Date(Date.parse(nextExpectedAt) + 1000)
    const [one, two] = await Promise.all([
      detectHeartbeatDeadlines(harness.ctx, late),
      detectHeartbeatDeadlines(harness.ctx, late),
    ])
    const mine = [...one, ...two].filter((result) => result.monitorId === id)
    expect(mine.map((result) => result.errorKind)).toEqual(['missed'])
  })

  it('answers an unknown and a regenerated token alike with 404, and limits each token per minute', async () => {
    const heartbeat = (await call('POST', '/api/heartbeats', { name: 'Cron', every: 3600 })).json().data as View
    const old = pathOf(heartbeat)
    expect((await app.inject({ method: 'GET', url: old })).statusCode).toBe(200)
    const regenerated = (await call('POST', `/api/heartbeats/${heartbeat.id}/regenerate-token`)).json().data as View
    expect(regenerated.pingUrl).not.toBe(heartbeat.pingUrl)
    const gone = await app.inject({ method: 'GET', url: old })
    const never = await app.inject({ method: 'GET', url: '/ping/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
    const malformed = await app.inject({ method: 'GET', url: '/ping/..%2F' })
    expect([gone.statusCode, never.statusCode, malformed.statusCode]).toEqual([404, 404, 404])
    expect(gone.json()).toEqual(never.json())
    expect((await app.inject({ method: 'GET', url: `${pathOf(regenerated)}/256` })).statusCode).toBe(404)

    const statuses: number[] = []
    let refused: Awaited<ReturnType<typeof app.inject>> | undefined
    for (let index = 0; index < 41; index += 1) {
      const response = await app.inject({ method: 'POST', url: pathOf(regenerated) })
      statuses.push(response.statusCode)
      if (response.statusCode === 429) refused = response
    }
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(39)
    expect(refused?.headers['retry-after']).toMatch(/^\d+$/)
  })
})
