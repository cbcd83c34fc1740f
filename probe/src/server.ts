import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import {
  type ArtifactUpload,
  artifactUploadSubject,
  type Bus,
  derivePurposeKey,
  encodeCheckResult,
  encodeJson,
  type Logger,
  MONITORS_BUCKET,
  type MonitorConfig,
  probeCredentialsKey,
  probeHeartbeatSubject,
  resolveSecretKey,
  resultSubject,
  type Stoppable,
} from '@guard/shared'
import probePackage from '../package.json' with { type: 'json' }
import { BrowserChecks } from './browser/browser-checks.ts'
import { checkBrowser } from './browser/check-browser.ts'
import { startCanary } from './canary.ts'
import { CheckPool } from './check-pool/pool.ts'
import type { ProbeEnv } from './env.ts'
import { heartbeats } from './heartbeat.ts'
import { LagWindow } from './lag-window.ts'
import { createProbeMetrics } from './metrics.ts'
import { MonitorCache } from './monitor-cache.ts'
import { type OpsServer, type ProbeHealth, startOpsServer } from './ops-server.ts'
import { Outbox } from './outbox/outbox.ts'
import { ResultPublisher } from './outbox/publisher.ts'
import { answerRequests } from './requests.ts'
import { type RunCheckOptions, runCheck } from './run-check.ts'
import { runsHere } from './runs-here.ts'
import { Scheduler } from './scheduler.ts'
import { watchMonitors } from './watch-monitors.ts'

export interface ProbeDeps {
  env: ProbeEnv
  log: Logger
  bus: Bus
  /** Where /healthz and /metrics listen (port 0: any free port); undefined: not served. */
  ops?: { host: string; port: number }
  /** The clock results are stamped with; the host's by default (a skewed one in fault tests). */
  now?: () => number
}

export interface ProbeStats {
  checks: number
  published: number
  replayed: number
}

export interface RunningProbe {
  location: string
  stats: ProbeStats
  /** Base URL of /healthz and /metrics when served. */
  opsUrl: string | undefined
  outboxDepth(): number
  /** Stops scheduling, waits for checks in flight and hands their results to the stream or the outbox. */
  close(): Promise<void>
}

/** The HKDF purpose of the key that seals credentials in the probe's state directory. */
const PROBE_STATE_PURPOSE = 'guard/probe-state/v1'

/** How long close waits for the outbox to empty when NATS is there; the rest stays on disk. */
const CLOSE_FLUSH_MS = 2000

/** Share of the outbox's byte limit past which results are about to be dropped. */
const OUTBOX_NEARLY_FULL = 0.9

/**
 * /healthz for load balancers and Kubernetes: 200 while the probe checks and keeps its results
 * (NATS away only degrades it: results wait in the outbox), 503 while it shuts down or when its
 * outbox is nearly full with NATS away, so results are about to be dropped.
 */
export function probeHealth(state: {
  location: string
  closing: boolean
  busConnected: boolean
  monitors: number
  outboxDepth: number
  outboxBytes: number
  outboxMaxBytes: number
}): ProbeHealth {
  const outbox = state.outboxBytes >= state.outboxMaxBytes * OUTBOX_NEARLY_FULL ? 'nearly-full' : 'ok'
  const serving = !state.closing && (state.busConnected || outbox === 'ok')
  const status = !serving ? 'unavailable' : state.busConnected ? 'ok' : 'degraded'
  return {
    serving,
    body: {
      status,
      location: state.location,
      checks: { bus: state.busConnected ? 'up' : 'down', outbox },
      busConnected: state.busConnected,
      monitors: state.monitors,
      outboxDepth: state.outboxDepth,
    },
  }
}

/** How long the collector has to store one piece of an artifact. */
const ARTIFACT_UPLOAD_TIMEOUT_MS = 15_000

/**
 * Browser checks on a probe started with GUARD_PROBE_BROWSER: its slots, shared fairly between the
 * organizations with browser checks scheduled here, artifacts handed to the collector over the bus.
 */
function browserRunner(
  env: ProbeEnv,
  bus: Bus,
  location: string,
  stateDir: string,
  allowPrivate: boolean,
  scheduled: () => MonitorConfig[],
): RunCheckOptions['browser'] {
  if (env.GUARD_PROBE_BROWSER === undefined || env.GUARD_PROBE_BROWSER_PATH === undefined) return undefined
  const artifactsDir = join(stateDir, 'artifacts')
  const checks = new BrowserChecks({
    concurrency: env.GUARD_PROBE_BROWSER_CONCURRENCY,
    browserPath: env.GUARD_PROBE_BROWSER_PATH,
    artifactsDir,
    allowPrivate,
    tenants: () =>
      new Set(
        scheduled()
          .filter((monitor) => monitor.target.kind === 'browser')
          .map((monitor) => monitor.organizationId),
      ).size,
  })
  const upload = async (piece: ArtifactUpload) => {
    await bus.request(artifactUploadSubject(location), encodeJson(piece), { timeoutMs: ARTIFACT_UPLOAD_TIMEOUT_MS })
  }
  return (run) => checkBrowser({ checks, artifactsDir, upload }, run)
}

export async function startProbe(deps: ProbeDeps): Promise<RunningProbe> {
  const { env, bus } = deps
  const location = env.GUARD_PROBE_LOCATION
  const allowPrivate = env.GUARD_ALLOW_PRIVATE_TARGETS
  const credentialsKey = env.GUARD_PROBE_CREDENTIALS_KEY
    ? probeCredentialsKey(env.GUARD_PROBE_CREDENTIALS_KEY)
    : undefined
  const log = deps.log.child({ location })
  const stateDir = env.GUARD_PROBE_STATE_DIR ?? join(env.GUARD_DATA_DIR, `probe-${location}`)
  const stats: ProbeStats = { checks: 0, published: 0, replayed: 0 }
  const lags = new LagWindow()
  const pool = new CheckPool({ threads: env.GUARD_PROBE_CHECK_THREADS, log })
  const canary = startCanary(env.GUARD_PROBE_CANARY, {
    intervalMs: env.GUARD_PROBE_CANARY_SECONDS * 1000,
    timeoutMs: 3000,
  })

  const outbox = await Outbox.open({
    dir: join(stateDir, 'outbox'),
    maxBytes: env.GUARD_PROBE_OUTBOX_MAX_BYTES,
    maxAgeMs: env.GUARD_PROBE_OUTBOX_MAX_AGE_SECONDS * 1000,
  })
  if (outbox.depth > 0) log.info({ outboxDepth: outbox.depth }, 'replaying results stored by an earlier run')

  // Metrics are only collected on a scrape, once `running` below exists.
  const metrics = createProbeMetrics(location, {
    outbox,
    monitors: () => running.size,
    inFlight: () => running.inFlight,
    connected: () => bus.isConnected(),
  })
  const publisher = new ResultPublisher({
    bus,
    outbox,
    log,
    onPublished: (_entry, replayed) => {
      stats.published += 1
      if (replayed) stats.replayed += 1
      metrics.observePublished(replayed)
    },
  })

  const browser = browserRunner(env, bus, location, stateDir, allowPrivate, () => running.monitors())
  const running = new Scheduler({
    concurrency: env.GUARD_PROBE_CONCURRENCY,
    onLag: (lagMs) => {
      lags.add(lagMs)
      metrics.observeLag(lagMs)
    },
    run: async (monitor) => {
      const result = await runCheck(monitor, location, allowPrivate, {
        credentialsKey,
        now: deps.now,
        check: pool.check,
        browser,
      })
      // This probe's own network is down: the failure says nothing about the target.
      if (result.status !== 'up' && canary.degraded()) result.probeDegraded = true
      stats.checks += 1
      metrics.observeCheck(result)
      try {
        await publisher.deliver({
          id: result.id,
          key: monitor.id,
          subject: resultSubject(location),
          data: encodeCheckResult(result),
          at: Date.now(),
        })
      } catch (error) {
        // Only a failing disk gets here (NATS away is what the outbox is for): say so loudly.
        log.error(
          { err: error, monitorId: monitor.id, resultId: result.id },
          'result lost: the outbox could not store it',
        )
      }
    },
  })

  const stateKey = derivePurposeKey(await resolveSecretKey(env), PROBE_STATE_PURPOSE)
  const cache = new MonitorCache(join(stateDir, 'monitors.json'), stateKey)
  for (const monitor of await cache.load())
    if (runsHere(monitor, location, browser !== undefined)) running.upsert(monitor)

  // Everything that needs NATS attaches in the background: a probe started during an outage
  // checks its cached monitors and spools results until the bus comes back.
  const attachments: Stoppable[] = []
  let closing = false
  const keep = async (stoppables: Stoppable[]) => {
    if (closing) await Promise.all(stoppables.map((stoppable) => stoppable.stop()))
    else attachments.push(...stoppables)
  }
  void (async () => {
    const kv = await bus.kv(MONITORS_BUCKET)
    if (closing) return
    await keep([
      await watchMonitors(
        kv,
        location,
        running,
        log,
        () => cache.saveSoon(() => running.monitors()),
        browser !== undefined,
      ),
    ])
    if (closing) return
    await keep(await answerRequests(bus, location, allowPrivate, log, { credentialsKey, check: pool.check, browser }))
    log.info('probe watching monitors and answering requests')
  })().catch((error: unknown) => {
    if (!closing) log.error({ err: error }, 'could not attach to the bus')
  })

  const nextHeartbeat = heartbeats({
    location,
    instance: randomUUID(),
    version: probePackage.version,
    outbox,
    lags,
    monitors: () => running.size,
    inFlight: () => running.inFlight,
    checksDone: () => stats.checks,
    browser: env.GUARD_PROBE_BROWSER !== undefined,
  })
  const heartbeat = setInterval(() => {
    bus.emit(probeHeartbeatSubject(location), encodeJson(nextHeartbeat())).catch(() => {})
  }, env.GUARD_PROBE_HEARTBEAT_SECONDS * 1000)
  heartbeat.unref()

  let ops: OpsServer | undefined
  if (deps.ops) {
    try {
      ops = await startOpsServer(deps.ops.host, deps.ops.port, metrics.registry, () =>
        probeHealth({
          location,
          closing,
          busConnected: bus.isConnected(),
          monitors: running.size,
          outboxDepth: outbox.depth,
          outboxBytes: outbox.bytes,
          outboxMaxBytes: env.GUARD_PROBE_OUTBOX_MAX_BYTES,
        }),
      )
    } catch (error) {
      // Metrics are for operators; a taken port must not stop the checks.
      log.error({ err: error, port: deps.ops.port }, 'could not serve /healthz and /metrics')
    }
  }

  return {
    location,
    stats,
    opsUrl: ops?.url,
    outboxDepth: () => outbox.depth,
    async close() {
      closing = true
      clearInterval(heartbeat)
      canary.stop()
      await Promise.all(attachments.map((attachment) => attachment.stop()))
      const scheduled = running.monitors()
      await running.stop()
      await pool.close()
      await cache.close(scheduled)
      if (bus.isConnected()) await publisher.flush(CLOSE_FLUSH_MS)
      await publisher.close()
      await outbox.close()
      await ops?.close()
    },
  }
}
