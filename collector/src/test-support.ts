import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import {
  type CheckResult,
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  newId,
  type RelationalStore,
  type Sql,
} from '@guard/shared'
import { openMigratedTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import type { FastifyRequest } from 'fastify'
import { SMTPServer } from 'smtp-server'
import { buildCollectorApp, type CollectorAppOptions } from './app.ts'
import type { Caller, CollectorContext } from './context.ts'
import { collectorEnvSchema } from './env.ts'
import { startReactions } from './ingest/reactions.ts'
import { authenticate } from './plugins/authenticate.ts'
import { prepareCollector } from './server.ts'
import { publishStagedEvents } from './services/events/publish.ts'
import { countUnprocessedEvents } from './services/events/unprocessed.ts'
import { monitorRowFields } from './services/heartbeats/monitor-row.ts'
import { generatePingToken } from './services/heartbeats/token.ts'
import { sendHttp } from './services/notifications/providers/http.ts'
import type { Alert, AlertKind, ProviderIO } from './services/notifications/providers/provider.ts'
import { refreshMonitorSummaries, scopeOfResults } from './services/summaries/refresh.ts'

/** Integrations in tests: every platform address on a closed local port, so no test can reach a real platform. */
const TEST_INTEGRATIONS_ENV = {
  GUARD_CLOUD_A_TOKEN_URL: 'http://127.0.0.1:9',
  GUARD_CLOUD_A_API_URL: 'http://127.0.0.1:9',
  GUARD_WEBHOST_C_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth/authorize',
  GUARD_WEBHOST_C_TOKEN_URL: 'http://127.0.0.1:9/oauth/token',
  GUARD_WEBHOST_C_API_URL: 'http://127.0.0.1:9',
  GUARD_WEBHOST_C_CLIENT_ID: 'guard-test-client',
}

const COLLECTOR_MIGRATIONS = fileURLToPath(new URL('../migrations/postgres', import.meta.url))

/** A collector context on real engines (PGlite from a template, a fresh chDB database), in process. */
export async function collectorForTest(envOverrides: Record<string, string> = {}) {
  const sql = await openMigratedTestRelationalStore([{ service: 'collector', directory: COLLECTOR_MIGRATIONS }])
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

/** A test collector with its app; `close` ends the app, the collector, then `alsoClose`. */
async function collectorWithApp(
  envOverrides: Record<string, string>,
  appOptions: (ctx: CollectorContext) => CollectorAppOptions = () => ({}),
  alsoClose?: { close(): Promise<void> },
) {
  const harness = await collectorForTest(envOverrides)
  const app = await buildCollectorApp(harness.ctx, appOptions(harness.ctx))
  return {
    ...harness,
    app,
    async close() {
      await app.close()
      await harness.close()
      await alsoClose?.close()
    },
  }
}

/** A test collector with its app, whose callers include `users` by name; `close` ends both. */
export const collectorAppWithUsers = (users: Record<string, Caller>, envOverrides: Record<string, string> = {}) =>
  collectorWithApp(envOverrides, (ctx) => ({ authenticate: authenticateWithUsers(ctx, users) }))

/** One JSON request into `app` as the user registered under `user` (see authenticateWithUsers). */
export async function injectAsUser(
  app: Awaited<ReturnType<typeof buildCollectorApp>>,
  user: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer user:${user}` },
    ...(payload ? { payload } : {}),
  })
  return { status: response.statusCode, body: response.json() }
}

/** Starts the event consumers and the delivery worker of a test collector (no weekly schedule). */
export const startReactionsForTest = (ctx: CollectorContext) => startReactions(ctx, { weeklyReports: false })

/**
 * Publishes every staged event and waits until each consumer that handles it has processed it,
 * repeating while handlers stage more (the incident engine's incident events): then incidents,
 * notifications, deliveries and the activity feed reflect everything that happened so far.
 */
export async function eventsSettled(ctx: CollectorContext, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    await publishStagedEvents(ctx, { olderThanMs: 0 })
    const pending = await countUnprocessedEvents(ctx.sql)
    if (pending === 0) return
    if (Date.now() > deadline) throw new Error(`${pending} events still unprocessed after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export interface ReceivedRequest {
  headers: Record<string, string>
  body: string
  answered: number
}

/**
 * An HTTP receiver on 127.0.0.1 that answers each request with the next status of `statuses`
 * (the last one repeats), recording what it answered; after `holdAfter` answers (or hold()),
 * requests are held unanswered until release() answers or dropHeld() forgets them.
 */
export async function startReceiver(statuses: number[] = [200], options: { holdAfter?: number } = {}) {
  const received: ReceivedRequest[] = []
  let holding = false
  const limit = () => options.holdAfter ?? Number.POSITIVE_INFINITY
  const held: Array<() => void> = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const answer = () => {
        const status = statuses[Math.min(received.length, statuses.length - 1)]!
        received.push({
          headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks).toString('utf8'),
          answered: status,
        })
        response.writeHead(status).end()
      }
      if (holding || received.length >= limit()) held.push(answer)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Requests arriving from now on get no answer until release(). */
    hold() {
      holding = true
    },
    held: () => held.length,
    release() {
      holding = false
      for (const answer of held.splice(0)) answer()
    },
    /** Forgets the held requests (their sender is gone) and answers every later one. */
    dropHeld() {
      held.splice(0)
      holding = false
      options.holdAfter = undefined
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A local SMTP server (smtp-server) that accepts every message and keeps it raw. */
export async function startSmtpSink() {
  const messages: Array<{ from: string; to: string[]; raw: string }> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A header of a raw mail (folded lines joined), or undefined. */
export function mailHeader(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ')
  return head
    .split('\r\n')
    .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    ?.slice(name.length + 1)
    .trim()
}

/** The http(s) links of a raw mail's text, quoted-printable undone. */
export function mailLinks(raw: string): string[] {
  const text = raw.replace(/=\r\n/g, '').replace(/=3D/g, '=')
  return [...new Set(text.match(/https?:\/\/[^\s"<>]+/g) ?? [])]
}

/**
 * `sql` with a switch that makes it fail as a stopped PostgreSQL does (connection refused), for
 * outage tests that need no server to stop.
 */
export function withOutage(sql: RelationalStore) {
  let down = false
  const refuse = () =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
  // Only a server can be away while the collector runs (PGlite lives in its process): the store says so.
  const store: RelationalStore = Object.assign(Object.create(sql) as RelationalStore, {
    engine: 'postgres' as const,
    singleProcess: false,
    query: (text: string, params?: unknown[]) => (down ? refuse() : sql.query(text, params)),
    transaction: <T>(work: (tx: Sql) => Promise<T>) => (down ? refuse() : sql.transaction(work)),
  })
  return {
    sql: store,
    setDown(value: boolean) {
      down = value
    },
  }
}

export interface FakeRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  /** The form or JSON body, parsed. */
  body: Record<string, string>
  /** The body as sent. */
  raw: string
}
export type FakeAnswer = { status: number; json?: unknown; headers?: Record<string, string> } | 'hang'

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
      raw: text,
    }
    requests.push(request)
    const result = await answer(request)
    if (result === 'hang') return
    outgoing.writeHead(result.status, { 'content-type': 'application/json', ...result.headers })
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

/**
 * A collector whose env `env` points at the running fake platform `fake` (private targets
 * allowed, as the fake listens on 127.0.0.1), with its app; `close` ends the app, the
 * collector and the fake.
 */
export const collectorBesideFakePlatform = (
  fake: Awaited<ReturnType<typeof fakePlatform>>,
  env: Record<string, string>,
) => collectorWithApp({ GUARD_ALLOW_PRIVATE_TARGETS: '1', ...env }, undefined, fake)

/** How many integration accounts are linked, in every organization. */
export const integrationAccountCount = async (ctx: CollectorContext) =>
  (await ctx.sql.query('SELECT id FROM monitoring.integration_accounts')).rows.length

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

/**
 * What the ingest's summary refresher does after a batch, for tests that store results directly:
 * recomputes the batch's monitors' 24-hour and daily figures from the rollups.
 */
export async function refreshSummariesOf(ctx: CollectorContext, results: CheckResult[]): Promise<void> {
  const scope = scopeOfResults(results)
  if (scope) await refreshMonitorSummaries({ sql: ctx.sql, timeseries: ctx.timeseries, input: scope })
}

/**
 * A stand-in for identity's token endpoint: an RS256 key published as a JWKS on 127.0.0.1, and
 * `sign` minting access tokens (typ at+jwt) as identity does, for any audience and scope. Point
 * GUARD_IDENTITY_URL at `issuer`.
 */
export async function startTestIssuer() {
  const { exportJWK, generateKeyPair, SignJWT } = await import('jose')
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    sign(options: {
      audience: string | string[]
      scope: string
      organizations?: Array<{ id: string; role: string }>
      subject?: string
    }) {
      return new SignJWT({
        client_id: 'assistant',
        scope: options.scope,
        ...(options.organizations ? { organizations: options.organizations } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setSubject(options.subject ?? 'user-1')
        .setAudience(options.audience)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .setExpirationTime('10m')
        .sign(privateKey)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * `count` hourly heartbeats of the default organization in two statements (creating them one by one
 * through the API would take longer than the burst that uses them), each due `dueAt(index)`;
 * returns their ids, tokens and deadlines.
 */
export async function seedHeartbeatFleet(ctx: CollectorContext, count: number, dueAt: (index: number) => Date) {
  const row = monitorRowFields({ every: 3600 }, new Date())
  const fleet = Array.from({ length: count }, (_, index) => ({
    id: newId(),
    due: dueAt(index),
    ...generatePingToken(ctx.credentialKey),
  }))
  await ctx.sql.query(
    `INSERT INTO monitoring.monitors
       (id, organization_id, kind, name, target, check_interval, timeout_seconds, locations, failure_threshold,
        quorum_percent)
     SELECT id, $2, 'heartbeat', id, $3, $4, $5, $6, $7, $8 FROM unnest($1::text[]) AS id`,
    [
      fleet.map((entry) => entry.id),
      DEFAULT_ORGANIZATION.id,
      row.target,
      row.checkInterval,
      row.timeout,
      row.locations,
      row.failureThreshold,
      row.quorumPercent,
    ],
  )
  await ctx.sql.query(
    `INSERT INTO monitoring.heartbeats (monitor_id, token_hash, token_sealed, every_seconds, grace_seconds, next_due_at)
     SELECT id, hash, sealed, 3600, 0, due FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
       AS t(id, hash, sealed, due)`,
    [
      fleet.map((entry) => entry.id),
      fleet.map((entry) => entry.hash),
      fleet.map((entry) => entry.sealed),
      fleet.map((entry) => entry.due),
    ],
  )
  return fleet
}

/** What the outbox gives a provider, with requests allowed to 127.0.0.1 and e-mail refused. */
export function providerTestIO(idempotencyKey = 'dlv_test_1'): ProviderIO {
  return {
    http: (request) => sendHttp(request, { allowPrivate: true, timeoutMs: 5000 }),
    mail: async () => ({ ok: false, statusCode: null, error: 'no SMTP server in this test', permanent: true }),
    idempotencyKey,
  }
}

/** An alert as the dispatcher words it, for provider tests: a critical service down by default. */
export function sampleAlert(kind: AlertKind = 'opened', overrides: Partial<Alert> = {}): Alert {
  const resolved = kind === 'resolved'
  return {
    kind,
    eventType: resolved ? 'incident.resolved' : kind === 'opened' ? 'incident.opened' : 'incident.updated',
    eventId: `evt_${kind}`,
    organizationId: 'org_1',
    occurredAt: '2026-11-27T03:00:00.000Z',
    title: 'Checkout API is down',
    text: resolved
      ? 'Recovered after 4m 10s: up from 3 of 3 locations'
      : 'Down from eu, us (2 of 3 locations): Connection refused',
    link: 'http://127.0.0.1:4000/console/incidents/inc_1',
    severity: 'critical',
    incident: {
      id: 'inc_1',
      dedupKey: 'guard-inc_1',
      status: resolved ? 'resolved' : 'open',
      cause: 'down',
      detectedAt: '2026-11-27T02:55:50.000Z',
      ...(resolved ? { resolvedAt: '2026-11-27T03:00:00.000Z' } : {}),
    },
    monitor: { id: 'svc_1', kind: 'service' },
    ...(resolved ? {} : { acknowledgeUrl: 'http://127.0.0.1:4000/ack/tok_1' }),
    data: { incidentId: 'inc_1' },
    ...overrides,
  }
}
