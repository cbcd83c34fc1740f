import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildCollectorApp, collectorEnvSchema, prepareCollector } from '@guard/collector'
import { parseIdentityEnv, type RunningIdentity, startIdentity } from '@guard/identity'
import {
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  openRelationalStore,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { openTestTimeSeriesStore, startPostgres } from '@guard/shared/testing'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '../collector/src/services/api-keys/create.ts'
import { identityPlanSource } from '../collector/src/services/plans/source.ts'
import { eventually } from './support/collector-client.ts'

const postgres = await startPostgres()
const run = promisify(execFile)
const GUARD_BIN = fileURLToPath(new URL('../bin/guard.mjs', import.meta.url))
const SECRET = 'plans-e2e-secret-key-plans-e2e-secret-key'
const CACHE_SECONDS = 2

/**
 * Identity on PostgreSQL with GUARD_DEFAULT_PLAN=free, a collector asking it for plans (its
 * plan cache set to 2 s), and the operator's CLI as its own process on the same database.
 */
describe.skipIf(!postgres)('plans: limits from the catalog, enforced on every monitor write', () => {
  let dataDir: string
  let identity: RunningIdentity
  let identitySql: RelationalStore
  let collectorSql: RelationalStore
  let timeseries: TimeSeriesStore
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let apiKey: string
  const bus = createInProcessBus({ streams: guardStreams })
  const log = createLogger({ name: 'plans-e2e', level: 'silent', pretty: false })

  const call = async (method: string, url: string, payload?: unknown, key = apiKey) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: response.statusCode, body: response.json() }
  }
  const domain = (n: number, checkInterval = 300) => ({ url: `https://site-${n}.example`, checkInterval })
  const service = (n: number, checkInterval = 300) => ({
    name: `svc-${n}`,
    protocol: 'tcp',
    protocolConfig: { host: `host-${n}.example`, port: 22 },
    checkInterval,
  })
  const guard = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [GUARD_BIN, ...args], {
      // The CLI calls the running identity's admin API with the admin token it created.
      env: {
        ...process.env,
        DATABASE_URL: postgres!.url,
        GUARD_DATA_DIR: dataDir,
        GUARD_SECRET_KEY: SECRET,
        GUARD_IDENTITY_URL: identity.url,
        GUARD_ADMIN_TOKEN: identity.adminToken,
        LOG_LEVEL: 'silent',
      },
    })
    return JSON.parse(stdout)
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guard-plans-'))
    identitySql = await openRelationalStore({ databaseUrl: postgres!.url, dataDir })
    identity = await startIdentity({
      env: parseIdentityEnv({
        DATABASE_URL: postgres!.url,
        GUARD_DATA_DIR: dataDir,
        GUARD_IDENTITY_PORT: '0',
        GUARD_SECRET_KEY: SECRET,
        GUARD_DEFAULT_PLAN: 'free',
        LOG_LEVEL: 'silent',
      }),
      log,
      sql: identitySql,
    })
    collectorSql = await openRelationalStore({ databaseUrl: postgres!.url, dataDir })
    timeseries = await openTestTimeSeriesStore()
    const env = collectorEnvSchema.parse({
      GUARD_IDENTITY_URL: identity.url,
      GUARD_SECRET_KEY: SECRET,
      GUARD_PLAN_CACHE_SECONDS: String(CACHE_SECONDS),
      GUARD_DEFAULT_LOCATIONS: 'local',
      GUARD_LOCATIONS: 'local,fra',
    })
    const prepared = await prepareCollector({ env, log, sql: collectorSql, timeseries, bus })
    apiKey = prepared.created!.key
    app = await buildCollectorApp(prepared.ctx)
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await identity?.close()
    await bus.close()
    await timeseries?.close()
    await collectorSql?.close()
    await identitySql?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('GET /api/usage shows the default organization on the free plan with its limits and no monitors yet', async () => {
    const { status, body } = await call('GET', '/api/usage')
    expect(status).toBe(200)
    expect(body.data).toEqual({
      organizationId: DEFAULT_ORGANIZATION.id,
      plan: 'free',
      planName: 'Free',
      limits: {
        monitors: 5,
        minIntervalSeconds: 300,
        minBrowserIntervalSeconds: 300,
        locations: 1,
        statusPages: 1,
        retentionDays: 7,
      },
      usage: {
        monitors: 0,
        domains: 0,
        services: 0,
        heartbeats: 0,
        synthetics: 0,
        minIntervalSeconds: null,
        locations: 0,
      },
    })
  })

  it('an interval under the free plan’s 300 s and a second location are refused on create and update, naming limit, value and plan', async () => {
    for (const [path, body] of [
      ['/api/domains', domain(0, 299)],
      ['/api/services', service(0, 60)],
    ] as const) {
      const refused = await call('POST', path, body)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({
        success: false,
        error: 'PLAN_LIMIT',
        message: expect.stringMatching(/Free plan \(free\) allows a check interval of 300 seconds or more/),
        limit: 'minIntervalSeconds',
        value: 300,
        plan: 'free',
      })
    }
    const twoPlaces = await call('POST', '/api/domains', { ...domain(0), locations: ['local', 'fra'] })
    expect(twoPlaces.status).toBe(403)
    expect(twoPlaces.body).toMatchObject({ error: 'PLAN_LIMIT', limit: 'locations', value: 1, plan: 'free' })
    expect(twoPlaces.body.message).toMatch(/allows 1 location per monitor; the monitor names 2/)
    const created = await call('POST', '/api/domains', domain(1))
    expect(created.status).toBe(201)
    const id = created.body.data.id
    expect((await call('PUT', `/api/domains/${id}`, { checkInterval: 120 })).body).toMatchObject({
      error: 'PLAN_LIMIT',
      limit: 'minIntervalSeconds',
    })
    expect((await call('PUT', `/api/domains/${id}`, { locations: ['local', 'fra'] })).body).toMatchObject({
      error: 'PLAN_LIMIT',
      limit: 'locations',
    })
    // A write that leaves the interval alone is not refused for it.
    expect((await call('PUT', `/api/domains/${id}`, { name: 'renamed' })).status).toBe(200)
    expect((await call('GET', `/api/domains/${id}`)).body.data.checkInterval).toBe(300)
  })

  it('the sixth monitor (domains and services together) is refused and nothing is stored', async () => {
    for (const body of [domain(2), domain(3)]) expect((await call('POST', '/api/domains', body)).status).toBe(201)
    for (const body of [service(1), service(2)]) expect((await call('POST', '/api/services', body)).status).toBe(201)
    for (const [path, body] of [
      ['/api/domains', domain(6)],
      ['/api/services', service(6)],
    ] as const) {
      const refused = await call('POST', path, body)
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ error: 'PLAN_LIMIT', limit: 'monitors', value: 5, plan: 'free' })
      expect(refused.body.message).toMatch(/Free plan \(free\) allows 5 monitors; the organization has 5 already/)
    }
    const usage = (await call('GET', '/api/usage')).body.data.usage
    expect(usage).toEqual({
      monitors: 5,
      domains: 3,
      services: 2,
      heartbeats: 0,
      synthetics: 0,
      minIntervalSeconds: 300,
      locations: 1,
    })
  })

  it('the PLAN_LIMIT body is the one the OpenAPI document gives for 403', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    const schema = document.paths['/api/domains'].post.responses['403'].content['application/json'].schema
    const validate = ajv.compile({ ...schema, additionalProperties: false })
    const refused = await call('POST', '/api/domains', domain(7))
    expect(refused.body.limit).toBe('monitors')
    expect(validate(refused.body), ajv.errorsText(validate.errors)).toBe(true)
  })

  it('concurrent creates on several connections never pass the monitor limit together', async () => {
    const { body } = await call('GET', '/api/domains')
    expect((await call('DELETE', `/api/domains/${body.data[0].id}`)).status).toBe(200)
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        call('POST', n % 2 ? '/api/domains' : '/api/services', n % 2 ? domain(10 + n) : service(10 + n)),
      ),
    )
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 403, 403, 403, 403, 403, 403, 403])
    expect((await call('GET', '/api/usage')).body.data.usage.monitors).toBe(5)
  })

  it('a plan changed with `guard identity orgs set-plan` is enforced within GUARD_PLAN_CACHE_SECONDS', async () => {
    expect((await call('POST', '/api/domains', domain(20, 60))).status).toBe(403)
    const changed = await guard('identity', 'orgs', 'set-plan', 'default', 'pro')
    expect(changed).toMatchObject({ id: DEFAULT_ORGANIZATION.id, plan: 'pro' })
    const since = Date.now()
    const created = await eventually(
      async () => {
        const attempt = await call('POST', '/api/domains', domain(20, 60))
        return attempt.status === 201 ? attempt : undefined
      },
      'the pro plan to apply',
      (CACHE_SECONDS + 5) * 1000,
      100,
    )
    expect(Date.now() - since).toBeLessThanOrEqual((CACHE_SECONDS + 1) * 1000)
    expect(created.body.data.checkInterval).toBe(60)
    expect((await call('POST', '/api/domains', domain(21, 29))).body).toMatchObject({
      limit: 'minIntervalSeconds',
      value: 30,
      plan: 'pro',
    })

    expect(await guard('identity', 'orgs', 'set-plan', 'default', 'none')).toMatchObject({ plan: null })
    await eventually(
      async () => ((await call('GET', '/api/usage')).body.data.plan === null ? true : undefined),
      'no plan to apply',
      (CACHE_SECONDS + 5) * 1000,
      100,
    )
    expect((await call('POST', '/api/domains', domain(22, 5))).status).toBe(201)
  })

  it('an organization gets the running identity’s GUARD_DEFAULT_PLAN; one on no plan is not limited; an unknown plan is refused', async () => {
    const defaulted = await guard('identity', 'orgs', 'create', '--name', 'Defaulted', '--slug', 'defaulted')
    expect(defaulted.plan).toBe('free')
    const organization = await guard(
      'identity',
      'orgs',
      'create',
      '--name',
      'Self hosted',
      '--slug',
      'self-hosted',
      '--plan',
      'none',
    )
    expect(organization.plan).toBeNull()
    const key = (await createApiKey(collectorSql, { organizationId: organization.id, name: 'k', permissions: ['*:*'] }))
      .key
    for (let n = 0; n < 7; n += 1) {
      expect((await call('POST', '/api/domains', domain(100 + n, 5), key)).status).toBe(201)
    }
    expect((await call('GET', '/api/usage', undefined, key)).body.data).toMatchObject({ plan: null, limits: null })
    await expect(guard('identity', 'orgs', 'set-plan', 'self-hosted', 'gold')).rejects.toMatchObject({
      stderr: expect.stringContaining("plan: 'gold' is not a plan of the catalog"),
    })
  })

  it('a collector whose GUARD_SECRET_KEY differs from identity’s gets 503 naming the variable, never "no limits"', async () => {
    const stranger = identityPlanSource({
      identityUrl: identity.url,
      secretKey: 'not-the-identity-secret-key-not-the-identity',
      cacheSeconds: 1,
      log,
    })
    await expect(stranger.planOf(DEFAULT_ORGANIZATION.id)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('GUARD_SECRET_KEY'),
    })
  })

  it('while identity is down the last known plan stays enforced; an organization never seen gets 503', async () => {
    await guard('identity', 'orgs', 'set-plan', 'default', 'free')
    await eventually(
      async () => ((await call('GET', '/api/usage')).body.data.plan === 'free' ? true : undefined),
      'the free plan to apply again',
      (CACHE_SECONDS + 5) * 1000,
      100,
    )
    const unseen = (await createApiKey(collectorSql, { organizationId: 'org-unseen', name: 'k', permissions: ['*:*'] }))
      .key
    await identity.close()
    await new Promise((resolve) => setTimeout(resolve, (CACHE_SECONDS + 0.5) * 1000))
    const stale = await call('GET', '/api/usage')
    expect(stale.body.data).toMatchObject({ plan: 'free', usage: { monitors: 7 } })
    expect((await call('POST', '/api/domains', domain(30, 300))).body).toMatchObject({
      error: 'PLAN_LIMIT',
      limit: 'monitors',
    })
    const refused = await call('POST', '/api/domains', domain(31, 300), unseen)
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE' })
  })
})
