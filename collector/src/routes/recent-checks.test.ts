import { DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { heartbeatResult } from '../services/heartbeats/results.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { lookbackSeconds } from '../services/monitors/recent-checks.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorAppWithUsers, injectAsUser, refreshSummariesOf, userCaller } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id
const OTHER = 'org-recent-other'

describe('GET /api/monitors/recent-checks', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  const ids: Record<'domain' | 'quiet' | 'service' | 'heartbeat' | 'foreign', string> = {
    domain: '',
    quiet: '',
    service: '',
    heartbeat: '',
    foreign: '',
  }
  const get = (user: string, query: string) =>
    injectAsUser(harness.app, user, 'GET', `/api/monitors/recent-checks?${query}`)

  beforeAll(async () => {
    harness = await collectorAppWithUsers({
      admin: userCaller('admin', [ORG]),
      reader: userCaller('reader', [ORG], ['domains:read']),
      jobs: userCaller('jobs', [ORG], ['heartbeats:read']),
      stranger: userCaller('stranger', [OTHER]),
    })
    const create = async (user: string, path: string, payload: object) => {
      const response = await injectAsUser(harness.app, user, 'POST', path, payload)
      expect(response.status, JSON.stringify(response.body)).toBe(201)
      return (response.body as { data: { id: string } }).data.id
    }
    ids.domain = await create('admin', '/api/domains', { url: 'https://recent.example', checkInterval: 60 })
    ids.quiet = await create('admin', '/api/domains', { url: 'https://quiet.example', checkInterval: 60 })
    ids.service = await create('admin', '/api/services', {
      name: 'db',
      protocol: 'tcp',
      protocolConfig: { host: 'db.example', port: 5432 },
      checkInterval: 60,
    })
    ids.heartbeat = await create('admin', '/api/heartbeats', { name: 'Nightly backup', every: 3600 })
    ids.foreign = await create('stranger', '/api/domains', { url: 'https://foreign.example' })
    const run = (secondsAgo: number, up: boolean, durationMs?: number, errorKind?: 'missed' | 'failed') =>
      heartbeatResult({
        id: newId(),
        monitorId: ids.heartbeat,
        organizationId: ORG,
        at: Date.now() - secondsAgo * 1000,
        up,
        durationMs,
        ...(errorKind ? { errorKind, error: `the run ${errorKind}` } : {}),
      })
    const results = [
      // Older than the domain's look-back (at 60 s and limit 5: an hour): never part of the answer.
      resultFor(ids.domain, ORG, 'fra', 3 * 3600, 'down', 1),
      resultFor(ids.domain, ORG, 'fra', 300, 'up', 100),
      resultFor(ids.domain, ORG, 'iad', 240, 'up', 110),
      resultFor(ids.domain, ORG, 'fra', 180, 'degraded', 900),
      resultFor(ids.domain, ORG, 'iad', 120, 'down', 30, {
        statusCode: 503,
        errorKind: 'status_mismatch',
        error: 'HTTP 503, expected 2xx',
      }),
      resultFor(ids.domain, ORG, 'fra', 60, 'up', 120),
      resultFor(ids.domain, ORG, 'iad', 1, 'up', 130),
      resultFor(ids.service, ORG, 'fra', 30, 'up', 5, { kind: 'tcp', statusCode: 0 }),
      resultFor(ids.foreign, OTHER, 'fra', 30, 'up', 5),
      // Hourly runs: the look-back of the heartbeat's period reaches past the domains' hour.
      run(4 * 3600, true, 42_000),
      run(3 * 3600, false, undefined, 'missed'),
      run(2 * 3600, false, 1_500, 'failed'),
      run(3600, true),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
  })
  afterAll(() => harness.close())

  it("answers each monitor's newest checks, oldest first, with why they failed and the 24-hour uptime", async () => {
    const { status, body } = await get('admin', `ids=${ids.service},${ids.domain},${ids.quiet}&limit=5`)
    expect(status).toBe(200)
    const data = body.data as Array<{ monitorId: string; kind: string; uptime24h: number | null; checks: unknown[] }>
    expect(data.map((entry) => [entry.monitorId, entry.kind])).toEqual([
      [ids.service, 'service'],
      [ids.domain, 'domain'],
      [ids.quiet, 'domain'],
    ])
    const [service, domain, quiet] = data
    expect(domain!.checks).toHaveLength(5)
    expect(domain!.checks.map((check) => (check as { responseTime: number }).responseTime)).toEqual([
      110, 900, 30, 120, 130,
    ])
    expect(domain!.checks[1]).toMatchObject({ status: 'degraded', location: 'fra', errorKind: null })
    expect(domain!.checks[2]).toEqual({
      timestamp: expect.any(String),
      status: 'down',
      location: 'iad',
      responseTime: 30,
      statusCode: 503,
      errorKind: 'status_mismatch',
      error: 'HTTP 503, expected 2xx',
    })
    expect(domain!.checks[4]).toMatchObject({ status: 'up', location: 'iad', error: null, errorKind: null })
    const times = domain!.checks.map((check) => Date.parse((check as { timestamp: string }).timestamp))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    // Seven checks in the last day (the old one too), two down: the degraded one counts as answered.
    expect(domain!.uptime24h).toBeCloseTo((5 / 7) * 100, 1)
    expect(service!.checks).toEqual([expect.objectContaining({ status: 'up', statusCode: null })])
    expect(quiet).toEqual({ monitorId: ids.quiet, kind: 'domain', uptime24h: null, checks: [] })
  })

  it("answers a heartbeat's newest runs, with their durations and why they failed, like a domain's checks", async () => {
    const { status, body } = await get('admin', `ids=${ids.heartbeat},${ids.domain}&limit=3`)
    expect(status).toBe(200)
    const [heartbeat, domain] = body.data as Array<{
      monitorId: string
      kind: string
      uptime24h: number | null
      checks: unknown[]
    }>
    expect(domain).toMatchObject({ monitorId: ids.domain, kind: 'domain' })
    expect(heartbeat).toMatchObject({ monitorId: ids.heartbeat, kind: 'heartbeat' })
    expect(heartbeat!.checks).toEqual([
      {
        timestamp: expect.any(String),
        status: 'down',
        location: 'heartbeat',
        responseTime: 0,
        statusCode: null,
        errorKind: 'missed',
        error: 'the run missed',
      },
      expect.objectContaining({ status: 'down', responseTime: 1_500, errorKind: 'failed' }),
      expect.objectContaining({ status: 'up', responseTime: 0, errorKind: null, error: null }),
    ])
    // Four runs in the last day, two of them failed.
    expect(heartbeat!.uptime24h).toBe(50)
    const all = await get('admin', `ids=${ids.heartbeat}`)
    expect(
      (all.body.data as Array<{ checks: Array<{ responseTime: number }> }>)[0]!.checks.map((c) => c.responseTime),
    ).toEqual([42_000, 0, 1_500, 0])
  })

  it('answers heartbeats to a caller who may read only heartbeats, and leaves them out for one who may not', async () => {
    const jobs = await get('jobs', `ids=${ids.domain},${ids.heartbeat},${ids.service}`)
    expect(jobs.status).toBe(200)
    expect((jobs.body.data as Array<{ monitorId: string }>).map((entry) => entry.monitorId)).toEqual([ids.heartbeat])
    const reader = await get('reader', `ids=${ids.heartbeat},${ids.domain}`)
    expect((reader.body.data as Array<{ monitorId: string }>).map((entry) => entry.monitorId)).toEqual([ids.domain])
    const stranger = await get('stranger', `ids=${ids.heartbeat}`)
    expect(stranger.body.data).toEqual([])
  })

  it('defaults to 30 checks and reads the whole look-back of a long limit', async () => {
    const { body } = await get('admin', `ids=${ids.domain}`)
    // Checks older than the look-back (one hour here) stay out even when the limit has room.
    expect((body.data as Array<{ checks: unknown[] }>)[0]!.checks).toHaveLength(6)
  })

  it('leaves out monitors of other organizations, kinds the caller may not read and unknown ids', async () => {
    const unknown = '0190d3c2-0000-7000-8000-000000000000'
    const admin = await get('admin', `ids=${ids.foreign},${unknown},${ids.domain},${ids.domain}`)
    expect((admin.body.data as Array<{ monitorId: string }>).map((entry) => entry.monitorId)).toEqual([ids.domain])
    const reader = await get('reader', `ids=${ids.service},${ids.domain}`)
    expect(reader.status).toBe(200)
    expect((reader.body.data as Array<{ monitorId: string }>).map((entry) => entry.monitorId)).toEqual([ids.domain])
    const stranger = await get('stranger', `ids=${ids.domain},${ids.service}`)
    expect(stranger.body.data).toEqual([])
    expect((await get('stranger', `ids=${ids.domain}&organizationId=${ORG}`)).status).toBe(403)
  })

  it('refuses an empty list, more than 200 ids and a limit above 100 with 400', async () => {
    const many = Array.from({ length: 201 }, (_, index) => `m${index}`).join(',')
    for (const query of ['ids=,,', `ids=${many}`, `ids=${ids.domain}&limit=101`, `ids=${ids.domain}&limit=0`, '']) {
      const { status, body } = await get('admin', query)
      expect(status, query).toBe(400)
      expect(body.error).toBe('VALIDATION_ERROR')
    }
  })
})

describe('lookbackSeconds', () => {
  it('covers twice the time of `limit` checks, at least an hour and at most the raw retention', () => {
    expect(lookbackSeconds(60, 5, 35)).toBe(3600)
    expect(lookbackSeconds(60, 90, 35)).toBe(10_800)
    expect(lookbackSeconds(86_400, 100, 35)).toBe(35 * 86_400)
  })
})
