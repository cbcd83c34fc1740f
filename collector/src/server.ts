import { fileURLToPath } from 'node:url'
import {
  type Bus,
  DEFAULT_ORGANIZATION,
  DEVICES_STREAM,
  derivePurposeKey,
  type Logger,
  listeningUrl,
  MONITORS_BUCKET,
  migrate,
  migrateTimeSeries,
  probeCredentialsKey,
  type RelationalStore,
  reachableUrl,
  resolveSecretKey,
  type TimeSeriesStore,
} from '@guard/shared'
import { collectDefaultMetrics } from 'prom-client'
import { buildCollectorApp } from './app.ts'
import { createConsoleAuth } from './console/bff.ts'
import { consoleOidc } from './console/identity-client.ts'
import type { CollectorContext } from './context.ts'
import { type CollectorEnv, identityCallUrl } from './env.ts'
import { answerArtifactUploads } from './ingest/answer-artifact-uploads.ts'
import { consumeDeadLetters } from './ingest/consume-dead-letters.ts'
import {
  consumeDeviceHeartbeats,
  HEARTBEAT_DURABLE,
  type HeartbeatIngestStats,
} from './ingest/consume-device-heartbeats.ts'
import { consumeHeartbeatPings, type PingIngestStats } from './ingest/consume-heartbeat-pings.ts'
import { consumeHeartbeats } from './ingest/consume-heartbeats.ts'
import { consumeResults, INGEST_DURABLE, type IngestStats, RESULTS_STREAM } from './ingest/consume-results.ts'
import { createIngestMetrics } from './ingest/metrics.ts'
import { startReactions } from './ingest/reactions.ts'
import { createIngestWatch } from './ingest/watch.ts'
import { checkSealingKey } from './integrations/accounts.ts'
import { scheduleArtifactPruneJob } from './jobs/artifact-prune.ts'
import { scheduleDependencyReleaseJob } from './jobs/dependency-release.ts'
import { scheduleDeviceOfflineJob } from './jobs/device-offline.ts'
import { scheduleDomainRegistrationJob } from './jobs/domain-registration.ts'
import { scheduleHeartbeatDeadlineJob } from './jobs/heartbeat-deadlines.ts'
import { scheduleMaintenanceNoticeJob } from './jobs/maintenance-notices.ts'
import { scheduleSloBurnJob } from './jobs/slo-burn.ts'
import { scheduleSummarySweep } from './jobs/summary-refresher.ts'
import { ensureBootstrapApiKey } from './services/api-keys/ensure-bootstrap.ts'
import { identityServiceCheck } from './services/identity/service-check.ts'
import { identityMembershipSource } from './services/memberships/source.ts'
import { startOtlpMetricsExport } from './services/metrics/export-otlp.ts'
import { MONITOR_CREDENTIALS_PURPOSE } from './services/monitors/credentials.ts'
import { syncSchedules } from './services/monitors/sync-schedules.ts'
import { planSourceFromEnv } from './services/plans/source.ts'
import { createReadCache } from './services/read-cache/cache.ts'
import { followReadInvalidations } from './services/read-cache/invalidate.ts'
import { registerEmbeddedStoreMemory } from './services/results/embedded-memory.ts'
import { applyRetention } from './services/results/retention.ts'

export interface CollectorDeps {
  env: CollectorEnv
  log: Logger
  sql: RelationalStore
  timeseries: TimeSeriesStore
  bus: Bus
}

export interface RunningCollector {
  url: string
  /** Where a person opens the web console: GUARD_PUBLIC_URL, else the address listened on. */
  consoleUrl: string
  /** Set only on the start that created it: shown once, then only its hash remains. */
  bootstrapApiKey: string | undefined
  ingest: IngestStats
  deviceHeartbeats: HeartbeatIngestStats
  /** Stops HTTP and ingest; the caller closes the stores and the bus it opened. */
  close(): Promise<void>
}

const migrations = (engine: string) => fileURLToPath(new URL(`../migrations/${engine}`, import.meta.url))

/** Migrates both stores, creates the first API key when there is none, re-publishes schedules. */
export async function prepareCollector(deps: CollectorDeps) {
  await migrate(deps.sql, { service: 'collector', directory: migrations('postgres') })
  await migrateTimeSeries(deps.timeseries, { service: 'collector', directory: migrations('clickhouse') })
  await applyRetention(deps.timeseries, deps.env)
  const secretKey = await resolveSecretKey(deps.env)
  const identityUrl = identityCallUrl(deps.env)
  const ctx: CollectorContext = {
    ...deps,
    monitors: await deps.bus.kv(MONITORS_BUCKET),
    credentialKey: derivePurposeKey(secretKey, MONITOR_CREDENTIALS_PURPOSE),
    reads: createReadCache({
      ttlMs: deps.env.GUARD_READ_CACHE_TTL_MS,
      maxEntries: deps.env.GUARD_READ_CACHE_MAX_ENTRIES,
    }),
    probeCredentialsKey: deps.env.GUARD_PROBE_CREDENTIALS_KEY
      ? probeCredentialsKey(deps.env.GUARD_PROBE_CREDENTIALS_KEY)
      : undefined,
    sealKey: derivePurposeKey(secretKey, 'collector-notification-secrets'),
    wake: new EventTarget(),
    plans: await planSourceFromEnv(deps.env, deps.log),
    members: identityUrl ? identityMembershipSource({ identityUrl, secretKey }) : undefined,
    ...(identityUrl ? { identityCheck: identityServiceCheck({ identityUrl, secretKey, log: deps.log }) } : {}),
  }
  await checkSealingKey(ctx)
  const consoleKey = derivePurposeKey(secretKey, 'collector-console-sessions')
  const created = await ensureBootstrapApiKey(ctx.sql, DEFAULT_ORGANIZATION.id)
  const scheduled = await syncSchedules(ctx)
  return { ctx, created, scheduled, secretKey, consoleKey }
}

export async function startCollector(deps: CollectorDeps): Promise<RunningCollector> {
  const { ctx, created, scheduled, secretKey, consoleKey } = await prepareCollector(deps)
  const ingest: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const metrics = createIngestMetrics()
  // The process' own figures beside the ingest's: event-loop delay is what API latency waits on.
  collectDefaultMetrics({ register: metrics.registry, prefix: 'guard_collector_' })
  registerEmbeddedStoreMemory(metrics.registry, { sql: ctx.sql, timeseries: ctx.timeseries })
  const consumer = await consumeResults(ctx, ingest, metrics)
  const reactions = await startReactions(ctx)
  const probeHeartbeats = await consumeHeartbeats(ctx)
  const invalidations = await followReadInvalidations(ctx)
  const deviceHeartbeats: HeartbeatIngestStats = { stored: 0, duplicates: 0, deadLettered: 0, batches: 0 }
  const deviceConsumer = await consumeDeviceHeartbeats(ctx, deviceHeartbeats)
  const pings: PingIngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const pingConsumer = await consumeHeartbeatPings(ctx, pings)
  const deadLetters = await consumeDeadLetters(ctx, metrics)
  const otlpExport = startOtlpMetricsExport({ ctx })
  const ingestWatch = createIngestWatch(
    ctx,
    [
      {
        name: 'results',
        stream: RESULTS_STREAM,
        durable: INGEST_DURABLE,
        settled: () => ingest.stored + ingest.deadLettered,
      },
      {
        name: 'devices',
        stream: DEVICES_STREAM,
        durable: HEARTBEAT_DURABLE,
        settled: () => deviceHeartbeats.stored + deviceHeartbeats.duplicates + deviceHeartbeats.deadLettered,
      },
    ],
    deps.env.GUARD_INGEST_STALL_MS,
  )
  const offlineJob = scheduleDeviceOfflineJob(ctx)
  const deadlineJob = scheduleHeartbeatDeadlineJob(ctx)
  const registrationJob = scheduleDomainRegistrationJob(ctx)
  const sloBurnJob = scheduleSloBurnJob(ctx)
  const artifactPruneJob = scheduleArtifactPruneJob(ctx)
  const artifactUploads = await answerArtifactUploads(ctx)
  const maintenanceNoticeJob = scheduleMaintenanceNoticeJob(ctx)
  const dependencyReleaseJob = scheduleDependencyReleaseJob(ctx)
  const summarySweep = scheduleSummarySweep(ctx)

  // Asks identity once now, so a GUARD_SECRET_KEY that differs from identity's is logged at start,
  // not first noticed as a 503 on someone's write (refresh logs the reason).
  void ctx.plans.planOf(DEFAULT_ORGANIZATION.id).catch(() => undefined)

  // The console's links and its sign-in callback use GUARD_PUBLIC_URL, else the address listened on.
  let publicUrl = deps.env.GUARD_PUBLIC_URL
  const identityUrl = deps.env.GUARD_IDENTITY_URL
  const consoleOptions = {
    sql: ctx.sql,
    log: deps.log,
    publicUrl: () => publicUrl ?? `http://${deps.env.GUARD_COLLECTOR_HOST}:${deps.env.GUARD_COLLECTOR_PORT}`,
  }
  const resolveOidc = identityUrl
    ? consoleOidc({
        ...consoleOptions,
        identityUrl,
        internalUrl: deps.env.GUARD_IDENTITY_INTERNAL_URL,
        secretKey,
        sealKey: consoleKey,
      })
    : undefined
  const consoleAuth = createConsoleAuth({
    ...consoleOptions,
    sealKey: consoleKey,
    oidc: resolveOidc,
    sessionSeconds: deps.env.GUARD_CONSOLE_SESSION_HOURS * 3600,
  })
  const app = await buildCollectorApp(ctx, { metrics: metrics.registry, console: consoleAuth, ingest: ingestWatch })
  await app.listen({ host: deps.env.GUARD_COLLECTOR_HOST, port: deps.env.GUARD_COLLECTOR_PORT })
  const url = listeningUrl(app)
  publicUrl ??= reachableUrl(url)
  // Registers the console's client at identity on first start; a failure is retried at the first sign-in.
  void resolveOidc?.().catch((error: unknown) =>
    deps.log.warn({ err: error }, 'the web console is not registered at identity yet; the first sign-in retries'),
  )
  deps.log.info({ url, scheduled }, 'collector listening')

  return {
    url,
    consoleUrl: publicUrl,
    bootstrapApiKey: created?.key,
    ingest,
    deviceHeartbeats,
    async close() {
      await app.close()
      await offlineJob.stop()
      await deadlineJob.stop()
      await registrationJob.stop()
      await sloBurnJob.stop()
      await artifactPruneJob.stop()
      await artifactUploads.stop()
      await maintenanceNoticeJob.stop()
      await dependencyReleaseJob.stop()
      await summarySweep.stop()
      ingestWatch.stop()
      await Promise.all([consumer.stop(), deviceConsumer.stop(), pingConsumer.stop(), deadLetters.stop()])
      await reactions.stop()
      await probeHeartbeats.stop()
      await invalidations.stop()
      await otlpExport?.stop()
    },
  }
}
