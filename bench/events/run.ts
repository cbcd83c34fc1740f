import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  type CheckResult,
  createLogger,
  createNatsBus,
  DEFAULT_ORGANIZATION,
  encodeCheckResult,
  encodeEvent,
  guardStreams,
  newId,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
  resultSubject,
} from '@guard/shared'
import { startNatsServer, startPostgres } from '@guard/shared/testing'
import { consumeResults, type IngestStats } from '../../collector/src/ingest/consume-results.ts'
import { startReactions } from '../../collector/src/ingest/reactions.ts'
import { updateNotificationSettings } from '../../collector/src/services/notifications/settings.ts'
import { startReceiver } from '../../collector/src/test-support.ts'

/**
 * bench/events: BENCH_MONITORS domains (1000) go down at once. Two failing results per domain are
 * published to a real nats-server; the clock runs until every incident is open and every
 * incident.opened webhook has been answered by a local receiver (results → state machine →
 * monitor.down → incident engine → incident.opened → notifications → delivery worker → HTTP).
 * The ceiling, in the same run: raw publish + consume + ack of the same number of events of the
 * same size on a bare stream. Prints JSON with both times and their ratio.
 */
const monitors = Number(process.env.BENCH_MONITORS ?? 1000)
const round = (value: number) => Number(value.toPrecision(4))

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('bench timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const nats = await startNatsServer()
if (!nats) throw new Error('bench/events needs nats-server (apt-get install nats-server)')
const postgres = await startPostgres()
const dataDir = await mkdtemp(join(tmpdir(), 'guard-bench-events-'))
const bus = await createNatsBus({ servers: nats.url, name: 'bench-events', streams: guardStreams })
const rawBus = await createNatsBus({
  servers: nats.url,
  name: 'bench-events-raw',
  streams: [{ name: 'BENCHRAW', subjects: ['benchraw.>'], duplicateWindowMs: 120_000 }],
})
const receiver = await startReceiver([200])
let sql: RelationalStore | undefined
try {
  sql = await openRelationalStore({ databaseUrl: postgres?.url, dataDir })
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir })
  const env = collectorEnvSchema.parse({
    GUARD_INGEST_MAX_WAIT_MS: '50',
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    GUARD_SECRET_KEY: 'bench-events-secret-key-0123456789abcdef',
    GUARD_DELIVERY_POLL_MS: '100',
  })
  const log = createLogger({
    name: 'bench',
    level: process.env.BENCH_LOG_LEVEL === 'warn' ? 'warn' : 'silent',
    pretty: false,
  })
  const { ctx } = await prepareCollector({ env, log, sql, timeseries, bus })
  const ids = Array.from({ length: monitors }, () => newId())
  await sql.query(
    `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
     SELECT id, $2, 'domain', id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
       FROM unnest($1::text[]) AS id`,
    [ids, DEFAULT_ORGANIZATION.id],
  )
  await updateNotificationSettings(
    ctx,
    {
      principal: { kind: 'user', id: 'oncall' },
      organizationId: DEFAULT_ORGANIZATION.id,
      organizationIds: [DEFAULT_ORGANIZATION.id],
      permissions: ['*:*'],
    },
    { webhookUrl: receiver.url },
  )

  // The ceiling: the same number of events, of the same size, published and consumed raw.
  const sample = encodeEvent({
    v: 1,
    id: `monitor.down:${ids[0]}:0`,
    type: 'monitor.down',
    occurredAt: new Date().toISOString(),
    organizationId: DEFAULT_ORGANIZATION.id,
    data: {
      monitorId: ids[0]!,
      monitorKind: 'domain',
      monitorName: ids[0]!,
      target: `https://${ids[0]}.example`,
      locations: { failing: ['fra'], total: ['fra'] },
      statusCode: 503,
    },
  })
  let acked = 0
  const rawStart = performance.now()
  const raw = await rawBus.consume(
    {
      stream: 'BENCHRAW',
      durable: 'bench-raw',
      filterSubject: 'benchraw.>',
      maxBatch: 500,
      maxWaitMs: 20,
      ackWaitMs: 30_000,
    },
    async (batch) => {
      await Promise.all(batch.map((message) => message.ack()))
      acked += batch.length
    },
  )
  await Promise.all(ids.map((id) => rawBus.publish('benchraw.monitor.down', sample, { msgId: id })))
  await waitFor(() => acked >= monitors, 120_000)
  const rawSeconds = (performance.now() - rawStart) / 1000
  await raw.stop()

  const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const ingest = await consumeResults(ctx, stats)
  const reactions = await startReactions(ctx, { weeklyReports: false })
  const started = Date.now() - 60_000
  const start = performance.now()
  const results: CheckResult[] = ids.flatMap((monitorId) =>
    [0, 1].map((index) => ({
      v: 1 as const,
      id: newId(),
      monitorId,
      organizationId: DEFAULT_ORGANIZATION.id,
      location: 'fra',
      kind: 'http' as const,
      status: 'down' as const,
      startedAt: new Date(started + index * 1000).toISOString(),
      responseTimeMs: 100,
      statusCode: 503,
    })),
  )
  await Promise.all(
    results.map((result) => bus.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })),
  )
  const publishedSeconds = (performance.now() - start) / 1000
  await waitFor(async () => {
    const { rows } = await sql!.query<{ staged: string }>(
      `SELECT count(*) AS staged FROM monitoring.event_outbox WHERE subject = 'events.monitor.down'`,
    )
    return Number(rows[0]?.staged) >= monitors
  }, 600_000)
  const downEventsSeconds = (performance.now() - start) / 1000
  let incidentsSeconds = 0
  await waitFor(async () => {
    const { rows } = await sql!.query<{ open: string }>(
      `SELECT count(*) AS open FROM monitoring.incidents WHERE resolved_at IS NULL AND cause = 'down'`,
    )
    return Number(rows[0]?.open) >= monitors
  }, 600_000)
  incidentsSeconds = (performance.now() - start) / 1000
  await waitFor(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= monitors, 600_000)
  const deliveredSeconds = (performance.now() - start) / 1000
  await reactions.stop()
  await ingest.stop()

  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'events',
        monitors,
        relational: sql.engine,
        timeseries: timeseries.engine,
        rawPublishConsumeSeconds: round(rawSeconds),
        resultsPublishedSeconds: round(publishedSeconds),
        allDownEventsStagedSeconds: round(downEventsSeconds),
        allIncidentsOpenSeconds: round(incidentsSeconds),
        allWebhooksDeliveredSeconds: round(deliveredSeconds),
        webhookRequests: receiver.received.length,
        ratioIncidentsToRaw: round(incidentsSeconds / rawSeconds),
        ratioDeliveredToRaw: round(deliveredSeconds / rawSeconds),
      },
      null,
      2,
    )}\n`,
  )
  await timeseries.close()
} finally {
  await receiver.close()
  await rawBus.close()
  await bus.close()
  await sql?.close()
  await nats.stop()
  await postgres?.stop()
  await rm(dataDir, { recursive: true, force: true })
}
