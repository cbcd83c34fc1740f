import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { freePort, serviceAvailable } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { authenticateWithUsers, collectorForTest, refreshSummariesOf, userCaller, waitUntil } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id
const DAY_MS = 86_400_000

describe('GET /metrics/monitors', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let metricsKey: string
  let domain: string
  let service: string

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { stranger: userCaller('stranger', ['org-stranger']) }),
    })
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    domain = (
      await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers,
        payload: {
          url: 'https://shop.guard-metrics.dev',
          name: 'Shop "main"',
          tags: ['env:prod', 'Team-Name:web', 'critical'],
        },
      })
    ).json().data.id
    service = (
      await app.inject({
        method: 'POST',
        url: '/api/services',
        headers,
        payload: { name: 'Database', protocol: 'tcp', protocolConfig: { host: 'db.metrics.example', port: 5432 } },
      })
    ).json().data.id
    await app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: { authorization: 'Bearer user:stranger' },
      payload: { url: 'https://stranger.example', name: 'Stranger shop' },
    })
    const certificate = {
      valid: true,
      expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString(),
      issuer: 'Test CA',
      subject: 'shop.guard-metrics.dev',
    }
    const results = [
      resultFor(domain, ORG, 'fra', 90, 'up', 100, { certificate }),
      resultFor(domain, ORG, 'fra', 60, 'up', 300, { certificate }),
      resultFor(domain, ORG, 'iad', 60, 'up', 50, { certificate }),
      resultFor(service, ORG, 'fra', 90, 'down', 0),
      resultFor(service, ORG, 'fra', 60, 'down', 0),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.domain_registrations (domain, expires_at, checked_at) VALUES ('guard-metrics.dev', $1, now())`,
      [new Date(Date.now() + 90 * DAY_MS)],
    )
    // What the reactions open when the service goes down (they do not run here).
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, detected_at)
       VALUES ('inc-metrics', $1, 'Database down', 'open', 'high', 'down', $2, now())`,
      [ORG, service],
    )
    metricsKey = (
      await createApiKey(harness.ctx.sql, { organizationId: ORG, name: 'scraper', permissions: ['metrics:read'] })
    ).key
  })

  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('exports the quorum, each location, 24-hour response time, expiries, incidents and tag labels of the organization only', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/metrics/monitors',
      headers: { authorization: `Bearer ${metricsKey}` },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('application/openmetrics-text')
    expect(response.headers.vary).toContain('Accept-Encoding')
    const text = response.body
    const shop = `monitor_id="${domain}"`
    const database = `monitor_id="${service}"`
    expect(text).toContain(
      `guard_monitor_info{${shop},monitor="Shop \\"main\\"",kind="domain",tag_critical="true",tag_env="prod",tag_team_name="web"} 1\n`,
    )
    expect(text).toContain(`guard_monitor_info{${database},monitor="Database",kind="service"} 1\n`)
    expect(text).toContain(`guard_monitor_up{${shop}} 1\n`)
    expect(text).toContain(`guard_monitor_up{${database}} 0\n`)
    expect(text).toContain(`guard_monitor_location_up{${shop},location="iad"} 1\n`)
    expect(text).toContain(`guard_monitor_response_seconds{${shop},location="fra"} 0.2\n`)
    expect(text).toContain(`guard_monitor_uptime_ratio{${database},location="fra"} 0\n`)
    expect(text).toContain(`guard_monitor_incidents_open{${database}} 1\n`)
    expect(text).toContain(`guard_monitor_incidents_total{${database}} 1\n`)
    const expiry = (name: string) => Number(text.match(new RegExp(`${name}\\{[^}]*\\} (\\S+)`))?.[1])
    expect(expiry('guard_monitor_certificate_expiry_seconds') / 86_400).toBeCloseTo(30, 0)
    expect(expiry('guard_monitor_domain_expiry_seconds') / 86_400).toBeCloseTo(90, 0)
    expect(text.endsWith('# EOF\n')).toBe(true)
    expect(text).not.toContain('Stranger')
  })

  it('answers a scraper that accepts gzip with the same text gzipped', async () => {
    const headers = { authorization: `Bearer ${metricsKey}` }
    const plain = await app.inject({ method: 'GET', url: '/metrics/monitors', headers })
    const zipped = await app.inject({
      method: 'GET',
      url: '/metrics/monitors',
      headers: { ...headers, 'accept-encoding': 'gzip' },
    })
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body)
  })

  it('shows a monitor renamed within the cache time on the next scrape', async () => {
    const headers = { authorization: `Bearer ${metricsKey}` }
    await app.inject({ method: 'GET', url: '/metrics/monitors', headers })
    const renamed = await app.inject({
      method: 'PUT',
      url: `/api/services/${service}`,
      headers: { authorization: `Bearer ${harness.apiKey}` },
      payload: { name: 'Database primary', protocol: 'tcp' },
    })
    expect(renamed.statusCode).toBe(200)
    const text = (await app.inject({ method: 'GET', url: '/metrics/monitors', headers })).body
    expect(text).toContain(`guard_monitor_info{monitor_id="${service}",monitor="Database primary",kind="service"} 1\n`)
  })

  it('refuses a key without metrics:read', async () => {
    const { key } = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'reader',
      permissions: ['domains:read'],
    })
    const response = await app.inject({
      method: 'GET',
      url: '/metrics/monitors',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(response.statusCode).toBe(403)
  })

  const prometheus = serviceAvailable('prometheus', ['/usr/bin/prometheus', '/usr/local/bin/prometheus'])

  it.skipIf(!prometheus)(
    'is scraped by a real Prometheus, which joins the info series and runs every dashboard query',
    { timeout: 30_000 },
    async () => {
      const address = await app.listen({ host: '127.0.0.1', port: 0 })
      const directory = await mkdtemp(join(tmpdir(), 'guard-prometheus-'))
      const webPort = await freePort()
      await writeFile(
        join(directory, 'prometheus.yml'),
        [
          'global: { scrape_interval: 1s, scrape_timeout: 1s }',
          'scrape_configs:',
          '  - job_name: guard',
          '    metrics_path: /metrics/monitors',
          `    authorization: { credentials: ${metricsKey} }`,
          `    static_configs: [{ targets: ['${new URL(address).host}'] }]`,
        ].join('\n'),
      )
      let child: ChildProcess | undefined
      try {
        child = spawn(
          prometheus!,
          [
            `--config.file=${join(directory, 'prometheus.yml')}`,
            `--storage.tsdb.path=${join(directory, 'data')}`,
            `--web.listen-address=127.0.0.1:${webPort}`,
          ],
          { stdio: 'ignore' },
        )
        const query = async (expression: string) => {
          const response = await fetch(
            `http://127.0.0.1:${webPort}/api/v1/query?query=${encodeURIComponent(expression)}`,
          ).catch(() => undefined)
          if (!response?.ok) return []
          return (
            (await response.json()) as {
              data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> }
            }
          ).data.result
        }
        await waitUntil(
          async () => (await query('guard_monitor_up')).length === 2,
          'Prometheus to store a scrape',
          20_000,
        )
        await waitUntil(
          async () => (await query('guard_monitor_info')).length === 2,
          'Prometheus to store the info series',
          20_000,
        )
        const [shop] = await query(
          'guard_monitor_up * on(monitor_id) group_left(monitor, tag_team_name) guard_monitor_info{tag_env="prod"}',
        )
        expect(shop?.metric).toMatchObject({ monitor_id: domain, monitor: 'Shop "main"', tag_team_name: 'web' })
        expect(shop?.value[1]).toBe('1')
        const dashboard = JSON.parse(
          await readFile(new URL('../../../deploy/grafana/guard-monitors.json', import.meta.url), 'utf8'),
        ) as { panels: Array<{ targets?: Array<{ expr: string }> }> }
        for (const { expr } of dashboard.panels.flatMap((panel) => panel.targets ?? [])) {
          const response = await fetch(
            `http://127.0.0.1:${webPort}/api/v1/query?query=${encodeURIComponent(expr.replaceAll('$env', '.*'))}`,
          )
          expect({ expr, status: ((await response.json()) as { status: string }).status }).toEqual({
            expr,
            status: 'success',
          })
        }
        const [health] = await query('up{job="guard"}')
        expect(health?.value[1]).toBe('1')
      } finally {
        child?.kill()
        await rm(directory, { recursive: true, force: true })
      }
    },
  )
})
