import { type CheckResult, DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { incidentKey } from '../services/status-pages/public-incidents.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  eventsSettled,
  startReactionsForTest,
  userCaller,
} from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id
const REFUSED = 'connect ECONNREFUSED 127.0.0.1:4680'
const NOT_FOUND = 'getaddrinfo ENOTFOUND db-7.internal.example'
const RAW = ['ECONNREFUSED', '127.0.0.1', '4680', 'ENOTFOUND', 'getaddrinfo', 'db-7.internal', 'connect_refused']
let ip = 0
const fresh = () => `10.31.0.${++ip}`

describe('status page incidents in public wording, drafts, history and feed', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  const headers = { authorization: 'Bearer user:alice' }
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, auth = headers) =>
    app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) })
  const visit = (url: string) => app.inject({ method: 'GET', url, remoteAddress: fresh() })
  /** Three failed checks from one location, without an HTTP status: what a probe sends for a refused connection. */
  const fail = async (id: string, error: string, errorKind: CheckResult['errorKind']) => {
    const results = [30, 20, 10].map((ago) => {
      const { statusCode: _, ...result } = resultFor(id, ORG, 'fra', ago, 'down', 5, { error, errorKind })
      return result
    })
    await applyResultsToState(harness.ctx.sql, results)
    await eventsSettled(harness.ctx)
  }
  const domain = async (name: string, auth = headers) =>
    (await call('POST', '/api/domains', { url: `https://${name}.example`, name }, auth)).json().data.id as string
  const page = async (slug: string, domains: Array<[string, string]>, extra: object = {}) => {
    const created = (await call('POST', '/api/status-pages', { name: slug, slug, isPublic: true, ...extra })).json()
      .data
    for (const [domainId, displayName] of domains) {
      await call('POST', `/api/status-pages/${created.id}/domains`, { domainId, displayName })
    }
    return created.id as string
  }
  const incidentOf = async (monitorId: string) =>
    (
      await harness.ctx.sql.query<{ id: string }>(
        'SELECT id FROM monitoring.incidents WHERE monitor_id = $1 ORDER BY detected_at DESC LIMIT 1',
        [monitorId],
      )
    ).rows[0]!.id

  beforeAll(async () => {
    harness = await collectorForTest({
      GUARD_STATUS_PAGE_CACHE_SECONDS: '0',
      GUARD_RATE_LIMIT_READ: '100000',
      GUARD_RATE_LIMIT_WRITE: '100000',
      GUARD_RATE_LIMIT_PUBLIC: '100000',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        mallory: userCaller('mallory', ['org-mallory']),
      }),
    })
    reactions = await startReactionsForTest(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
  })

  it('shows automatic incidents of a refused connection and a failed DNS lookup by a plain reason, never the probe text', async () => {
    const db = await domain('internal-db-host')
    const web = await domain('web-frontend')
    await page('plain-words', [
      [db, 'Database'],
      [web, 'Website'],
    ])
    await fail(db, REFUSED, 'connect_refused')
    await fail(web, NOT_FOUND, 'dns')

    const json = await visit('/api/status-pages/plain-words/public')
    const active = json.json().data.incidents.active as Array<{ title: string; updates: Array<{ message: string }> }>
    expect(active.map((incident) => incident.title).sort()).toEqual(['Outage: Database', 'Outage: Website'])
    expect(active.flatMap((incident) => incident.updates.map((update) => update.message)).sort()).toEqual([
      'Detected: Connection refused',
      'Detected: DNS lookup failed',
    ])
    const html = await visit('/status/plain-words')
    const feed = await visit('/status/plain-words/feed.atom')
    const history = await visit('/status/plain-words/history')
    for (const body of [json.body, html.body, feed.body, history.body]) {
      expect(body).toContain('Connection refused')
      expect(body).toContain('DNS lookup failed')
      for (const raw of [...RAW, 'internal-db-host']) expect(body).not.toContain(raw)
    }
    const internal = (await call('GET', `/api/incidents/${await incidentOf(db)}/updates`)).json().data
    expect(internal[0].message).toContain(REFUSED)
  })

  it('holds automatic incidents as drafts on a draft page until published, and shows the edited public wording', async () => {
    const queue = await domain('queue-node')
    const id = await page('drafts-here', [[queue, 'Queue']], { automaticIncidents: 'draft' })
    expect((await call('GET', `/api/status-pages/${id}`)).json().data.automaticIncidents).toBe('draft')
    await fail(queue, REFUSED, 'connect_refused')
    const incident = await incidentOf(queue)
    const key = incidentKey(incident)
    expect((await visit('/api/status-pages/drafts-here/public')).json().data.incidents.active).toEqual([])
    expect((await visit(`/status/drafts-here/incidents/${key}`)).statusCode).toBe(404)
    expect((await visit('/status/drafts-here/feed.atom')).body).not.toContain(key)

    const wording = (await call('GET', `/api/incidents/${incident}/public`)).json().data
    expect(wording).toMatchObject({ automatic: true, publishedAt: null, publicTitle: null })
    expect(wording.updates[0].shown).toBe('Detected: Connection refused')
    const bad = await call('PUT', `/api/incidents/${incident}/public`, {
      updates: [{ id: 'nope', publicMessage: 'x' }],
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.body).toContain('updates')
    expect((await call('PUT', `/api/incidents/${incident}/public`, { publicTitle: '' })).statusCode).toBe(400)
    const edited = await call('PUT', `/api/incidents/${incident}/public`, {
      publicTitle: 'Messages are delayed',
      published: true,
      updates: [{ id: wording.updates[0].id, publicMessage: 'We are looking into delayed messages.' }],
    })
    expect(edited.statusCode).toBe(200)
    expect(edited.json().data.publishedAt).not.toBeNull()
    const mallory = await call(
      'PUT',
      `/api/incidents/${incident}/public`,
      { published: false },
      {
        authorization: 'Bearer user:mallory',
      },
    )
    expect(mallory.statusCode).toBe(404)

    const shown = (await visit('/api/status-pages/drafts-here/public')).json().data.incidents.active
    expect(shown).toMatchObject([
      { key, title: 'Messages are delayed', updates: [{ message: 'We are looking into delayed messages.' }] },
    ])
    const permanent = await visit(`/status/drafts-here/incidents/${key}`)
    expect(permanent.statusCode).toBe(200)
    expect(permanent.body).toContain('Messages are delayed')
    expect(permanent.body).toContain('We are looking into delayed messages.')
    expect((await visit('/status/drafts-here/feed.atom')).body).toContain('Messages are delayed')
  })

  it('pages the history by month, serves each incident at its permanent address, 404 for another page or organization', async () => {
    const cache = await domain('cache-node')
    const other = await domain('other-node')
    const strangers = await domain('stranger-node', { authorization: 'Bearer user:mallory' })
    await page('by-month', [[cache, 'Cache']])
    await page('elsewhere', [[other, 'Other']])
    const insert = async (id: string, organizationId: string, monitorId: string, at: string, title: string) => {
      await harness.ctx.sql.query(
        `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, monitor_kind,
           affected_domains, detected_at, resolved_at, created_by)
         VALUES ($1, $2, $3, 'resolved', 'high', 'manual', $4, 'domain', ARRAY[$4], $5, $5::timestamptz + interval '1 hour', 'user:alice')`,
        [id, organizationId, title, monitorId, at],
      )
      await harness.ctx.sql.query(
        `INSERT INTO monitoring.incident_updates (id, incident_id, organization_id, message, status, created_at)
         VALUES ($1, $2, $3, $4, 'resolved', $5::timestamptz + interval '1 hour')`,
        [`${id}-u`, id, organizationId, `${title} is over`, at],
      )
    }
    await insert('hist-march', ORG, cache, '2025-03-10T08:00:00Z', 'March cache trouble')
    await insert('hist-jan', ORG, cache, '2025-01-05T08:00:00Z', 'January cache trouble')
    await insert('hist-other', ORG, other, '2025-03-11T08:00:00Z', 'Another page trouble')
    await insert('hist-stranger', 'org-mallory', strangers, '2025-03-12T08:00:00Z', 'Stranger trouble')

    const march = (await visit('/api/status-pages/by-month/public/history?month=2025-03')).json().data
    expect(march).toMatchObject({ month: '2025-03', older: '2025-01', newer: null })
    expect(march.incidents.map((incident: { title: string }) => incident.title)).toEqual(['March cache trouble'])
    const html = await visit('/status/by-month/history?month=2025-03')
    expect(html.body).toContain('March 2025')
    expect(html.body).toContain('href="/status/by-month/history?month=2025-01"')
    expect(html.body).toContain(`href="/status/by-month/incidents/${incidentKey('hist-march')}"`)
    const january = (await visit('/api/status-pages/by-month/public/history?month=2025-01')).json().data
    expect(january).toMatchObject({ older: null, newer: '2025-03' })
    expect((await visit('/status/by-month/history?month=2025-13')).statusCode).toBe(400)

    const timeline = await visit(`/status/by-month/incidents/${incidentKey('hist-march')}`)
    expect(timeline.statusCode).toBe(200)
    expect(timeline.body).toContain('March cache trouble is over')
    expect(timeline.headers['content-security-policy']).toContain("script-src 'self'")
    for (const foreign of ['hist-other', 'hist-stranger']) {
      expect((await visit(`/status/by-month/incidents/${incidentKey(foreign)}`)).statusCode).toBe(404)
      expect((await visit(`/api/status-pages/by-month/public/incidents/${incidentKey(foreign)}`)).statusCode).toBe(404)
    }
    expect((await visit('/status/by-month/incidents/not-a-key')).statusCode).toBe(400)
  })

  it('pages the Atom feed through the whole history with first, previous, next and last links', async () => {
    const api = await domain('paged-api')
    await page('paged-feed', [[api, 'API']])
    for (let index = 0; index < 30; index++) {
      await harness.ctx.sql.query(
        `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, affected_domains,
           detected_at, resolved_at, created_by)
         VALUES ($1, $2, $3, 'resolved', 'low', 'manual', $4, ARRAY[$4], $5, $5, 'user:alice')`,
        [`feed-${index}`, ORG, `Old trouble ${index}`, api, new Date(Date.UTC(2024, 0, 1 + index)).toISOString()],
      )
    }
    const first = await visit('/status/paged-feed/feed.atom')
    const base = 'http://localhost:80/status/paged-feed/feed.atom'
    expect(first.body).toContain(`<link rel="first" href="${base}"/>`)
    expect(first.body).toContain(`<link rel="next" href="${base}?page=2"/>`)
    expect(first.body).toContain(`<link rel="last" href="${base}?page=2"/>`)
    expect(first.body).not.toContain('rel="previous"')
    expect(first.body.match(/<entry>/g)).toHaveLength(25)
    expect(first.body).toContain('Old trouble 29')
    const second = await visit('/status/paged-feed/feed.atom?page=2')
    expect(second.body).toContain(`<link rel="previous" href="${base}"/>`)
    expect(second.body).not.toContain('rel="next"')
    expect(second.body.match(/<entry>/g)).toHaveLength(5)
    expect(second.body).toContain('Old trouble 0')
    expect(second.body).toContain(
      `<link href="http://localhost:80/status/paged-feed/incidents/${incidentKey('feed-0')}"/>`,
    )
    expect((await visit('/status/paged-feed/feed.atom?page=0')).statusCode).toBe(400)
  })
})
