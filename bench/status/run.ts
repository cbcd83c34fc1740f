import { createFastify, createLogger, DEFAULT_ORGANIZATION, listeningUrl } from '@guard/shared'
import autocannon from 'autocannon'
import { buildCollectorApp } from '../../collector/src/app.ts'
import { resultFor } from '../../collector/src/routes/test-helpers.ts'
import { applyResultsToState } from '../../collector/src/services/monitor-state/apply-results.ts'
import { storeResults } from '../../collector/src/services/results/store.ts'
import { collectorForTest } from '../../collector/src/test-support.ts'

/**
 * bench/status: a public page with BENCH_COMPONENTS (20) domains checked from 2 locations, one
 * result per location and hour for 90 days plus the last day every 10 minutes, served embedded
 * (PGlite + chDB). Measures requests per second and p99 with autocannon (BENCH_CONNECTIONS 10,
 * BENCH_SECONDS 5) of the public JSON and HTML, cold (every request rebuilds the page:
 * GUARD_STATUS_PAGE_CACHE_SECONDS=0), warm (the default 10 s cache) and revalidated with the
 * ETag (304), against a bare fastify route answering a body of the same size in the same run. Then
 * the same page's HTML on its custom domain (Host header), behind a password with the visitor's page
 * cookie, and behind an IP allow-list: access rules must not cost the page its read ratio.
 */
const components = Number(process.env.BENCH_COMPONENTS ?? 20)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const ORG = DEFAULT_ORGANIZATION.id
const round = (value: number) => Math.round(value * 10) / 10

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers })
  return {
    requestsPerSecond: round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx - (headers['if-none-match'] ? (result['3xx'] ?? 0) : 0),
    requests: result.requests.total,
  }
}

type App = Awaited<ReturnType<typeof buildCollectorApp>>

async function measureAccessRules(app: App, base: string, pageId: string, headers: Record<string, string>) {
  const put = async (path: string, payload: object) => {
    const response = await app.inject({ method: 'PUT', url: `/api/status-pages/${pageId}/${path}`, headers, payload })
    if (response.statusCode !== 200) throw new Error(`PUT ${path}: ${response.statusCode} ${response.body}`)
  }
  await put('domain', { customDomain: 'status.bench.test' })
  const customDomain = await measure(`${base}/`, { host: 'status.bench.test' })
  await put('access', { mode: 'password', password: 'bench password' })
  const signedIn = await fetch(`${base}/status/bench/access`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'password=bench+password',
    redirect: 'manual',
  })
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!
  if (!cookie) throw new Error(`the password page gave no cookie (${signedIn.status})`)
  const passwordCookie = await measure(`${base}/status/bench`, { cookie })
  await put('access', { mode: 'ip', allowList: ['127.0.0.1/32'] })
  const ipAllowList = await measure(`${base}/status/bench`)
  await put('access', { mode: 'public' })
  return { customDomain, passwordCookie, ipAllowList }
}

async function main() {
  const results: Record<string, unknown> = {}
  for (const cache of ['0', '10']) {
    const harness = await collectorForTest({
      GUARD_STATUS_PAGE_CACHE_SECONDS: cache,
      GUARD_RATE_LIMIT_PUBLIC: '1000000000',
    })
    const app = await buildCollectorApp(harness.ctx, {})
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const page = (
      await app.inject({
        method: 'POST',
        url: '/api/status-pages',
        headers,
        payload: { name: 'Bench', slug: 'bench', isPublic: true },
      })
    ).json().data
    for (let index = 0; index < components; index++) {
      const id = (
        await app.inject({
          method: 'POST',
          url: '/api/domains',
          headers,
          payload: { url: `https://d${index}.example` },
        })
      ).json().data.id
      await app.inject({
        method: 'POST',
        url: `/api/status-pages/${page.id}/domains`,
        headers,
        payload: { domainId: id },
      })
      const seeded = []
      for (const location of ['fra', 'nyc']) {
        for (let hour = 90 * 24; hour > 24; hour--)
          seeded.push(resultFor(id, ORG, location, hour * 3600, 'up', 50 + (hour % 30)))
        for (let step = 144; step > 0; step--)
          seeded.push(resultFor(id, ORG, location, step * 600, step % 50 ? 'up' : 'down', 40))
      }
      await storeResults(harness.ctx.timeseries, seeded)
      await applyResultsToState(harness.ctx.sql, seeded.slice(-4))
    }
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = listeningUrl(app)
    const json = await fetch(`${base}/api/status-pages/bench/public`)
    const jsonBody = await json.text()
    const html = await fetch(`${base}/status/bench`)
    const htmlBody = await html.text()
    const bare = createFastify({ logger: createLogger({ name: 'bench-bare', level: 'silent', pretty: false }) })
    bare.get('/bare', async (_request, reply) => reply.type('application/json').send(jsonBody))
    await bare.listen({ port: 0, host: '127.0.0.1' })
    const ceiling = await measure(`${listeningUrl(bare)}/bare`)
    const mode = cache === '0' ? 'cold' : 'warm'
    const figures = {
      bare: ceiling,
      json: await measure(`${base}/api/status-pages/bench/public`),
      jsonRevalidated: await measure(`${base}/api/status-pages/bench/public`, {
        'if-none-match': json.headers.get('etag') as string,
      }),
      html: await measure(`${base}/status/bench`),
      htmlRevalidated: await measure(`${base}/status/bench`, { 'if-none-match': html.headers.get('etag') as string }),
      ...(await measureAccessRules(app, base, page.id, headers)),
    }
    results[mode] = {
      ...figures,
      bytes: { json: jsonBody.length, html: htmlBody.length },
      ratios: Object.fromEntries(
        Object.entries(figures)
          .filter(([name]) => name !== 'bare')
          .map(([name, value]) => [name, round((value.requestsPerSecond / ceiling.requestsPerSecond) * 100) / 100]),
      ),
    }
    await bare.close()
    await app.close()
    await harness.close()
  }
  console.log(JSON.stringify({ bench: 'status', components, connections, seconds, results }, null, 2))
}

await main()
