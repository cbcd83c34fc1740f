import { createInProcessBus, createLogger, guardStreams } from '@guard/shared'
import { openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import type { FastifyRequest } from 'fastify'
import type { Caller, CollectorContext } from './context.ts'
import { collectorEnvSchema } from './env.ts'
import { authenticate } from './plugins/authenticate.ts'
import { prepareCollector } from './server.ts'

/** Integrations in tests: every platform address on a closed local port, so no test can reach a real platform. */
const TEST_INTEGRATIONS_ENV = {
  GUARD_CLOUD_A_TOKEN_URL: 'http://127.0.0.1:9',
  GUARD_CLOUD_A_API_URL: 'http://127.0.0.1:9',
  GUARD_WEBHOST_C_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth/authorize',
  GUARD_WEBHOST_C_TOKEN_URL: 'http://127.0.0.1:9/oauth/token',
  GUARD_WEBHOST_C_API_URL: 'http://127.0.0.1:9',
  GUARD_WEBHOST_C_CLIENT_ID: 'guard-test-client',
}

/** A collector context on real engines (PGlite from a template, a fresh chDB database), in process. */
export async function collectorForTest(envOverrides: Record<string, string> = {}) {
  const sql = await openTestRelationalStore()
  const timeseries = await openTestTimeSeriesStore()
  const bus = createInProcessBus({ streams: guardStreams })
  const env = collectorEnvSchema.parse({
    ...TEST_INTEGRATIONS_ENV,
    GUARD_INGEST_MAX_WAIT_MS: '50',
    GUARD_SECRET_KEY: 'collector-test-secret-key-collector-test',
    ...envOverrides,
  })
  const log = createLogger({ name: 'collector-test', level: 'silent', pretty: false })
  const prepared = await prepareCollector({ env, log, sql, timeseries, bus })
  return {
    ...prepared,
    apiKey: prepared.created!.key,
    async close() {
      await bus.close()
      await timeseries.close()
      await sql.close()
    },
  }
}

/** A signed-in user of `organizationIds` (the first is their current one), as the JWT branch resolves them. */
export function userCaller(id: string, organizationIds: string[], permissions: string[] = ['*:*']): Caller {
  return { principal: { kind: 'user', id }, organizationId: organizationIds[0]!, organizationIds, permissions }
}

/**
 * The auth seam of buildCollectorApp: `Bearer user:<name>` resolves to the user registered under
 * that name, anything else goes through the production authentication.
 */
export function authenticateWithUsers(ctx: CollectorContext, users: Record<string, Caller>) {
  const production = authenticate(ctx)
  return async (request: FastifyRequest) => {
    const name = request.headers.authorization?.match(/^Bearer user:(\S+)$/)?.[1]
    const user = name ? users[name] : undefined
    if (user) {
      request.caller = user
      return
    }
    await production(request)
  }
}

export interface FakeRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  /** The form or JSON body, parsed. */
  body: Record<string, string>
}
export type FakeAnswer = { status: number; json?: unknown } | 'hang'

/**
 * A local stand-in for an external platform: `answer` (written in each test) decides every
 * response; `requests` records what Guard sent, so tests can assert on retries and grants.
 */
export async function fakePlatform(answer: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>) {
  const { createServer } = await import('node:http')
  const requests: FakeRequest[] = []
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const url = new URL(incoming.url ?? '/', 'http://fake')
    const body = incoming.headers['content-type']?.includes('json')
      ? (JSON.parse(text || '{}') as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(text))
    const request = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      body,
    }
    requests.push(request)
    const result = await answer(request)
    if (result === 'hang') return
    outgoing.writeHead(result.status, { 'content-type': 'application/json' })
    outgoing.end(result.json === undefined ? '' : JSON.stringify(result.json))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('fake platform has no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Every text column of the integration tables, for proving no secret is stored in the clear. */
export async function integrationTablesText(ctx: CollectorContext): Promise<string> {
  const tables = ['integration_accounts', 'integration_monitors', 'integration_authorizations']
  const dumps = await Promise.all(
    tables.map(async (table) => JSON.stringify((await ctx.sql.query(`SELECT * FROM monitoring.${table}`)).rows)),
  )
  return dumps.join('\n')
}

/**
 * Linked accounts of all three integrations stored directly (no platform involved), for tests
 * that need them to exist: tenancy, bad input.
 */
export async function seedIntegrationAccounts(ctx: CollectorContext, organizationId: string, label: string) {
  const { insertAccount } = await import('./integrations/accounts.ts')
  const seed = (provider: 'cloud-a' | 'selfhost-b' | 'webhost-c', config: Record<string, string>, secret: string) =>
    insertAccount(ctx, {
      organizationId,
      provider,
      name: `${label} ${provider}`,
      externalKey: `${label}-${provider}`,
      config,
      secrets: { secret },
      hintOf: secret,
      grant: undefined,
      createdBy: 'test',
    })
  const cloudA = await seed(
    'cloud-a',
    { tenantId: `${label}-tenant`, clientId: `${label}-client`, subscriptionId: `${label}-subscription` },
    `${label}-cloud-a-secret-value`,
  )
  const selfhostB = await seed('selfhost-b', { url: `https://${label}-instance.example` }, `${label}-api-key-value`)
  const webhostC = await seed(
    'webhost-c',
    { userId: `${label}-user`, username: `${label}-username` },
    `${label}-refresh-value`,
  )
  return { cloudA: cloudA.id, selfhostB: selfhostB.id, webhostC: webhostC.id }
}

/** Polls `condition` every 25 ms for up to `timeoutMs`; fails naming what never happened. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}
