import {
  type Bus,
  encodeCheckResult,
  type Logger,
  MONITORS_BUCKET,
  probeHeartbeatSubject,
  resultSubject,
} from '@guard/shared'
import type { ProbeEnv } from './env.ts'
import { runCheck } from './run-check.ts'
import { Scheduler } from './scheduler.ts'
import { watchMonitors } from './watch-monitors.ts'

export interface ProbeDeps {
  env: ProbeEnv
  log: Logger
  bus: Bus
}

export interface ProbeStats {
  checks: number
  published: number
  publishFailures: number
  lastLagMs: number
}

export interface RunningProbe {
  location: string
  stats: ProbeStats
  /** Stops scheduling and waits for checks in flight to publish. */
  close(): Promise<void>
}

const HEARTBEAT_MS = 5000

export async function startProbe(deps: ProbeDeps): Promise<RunningProbe> {
  const location = deps.env.GUARD_PROBE_LOCATION
  const log = deps.log.child({ location })
  const stats: ProbeStats = { checks: 0, published: 0, publishFailures: 0, lastLagMs: 0 }

  const scheduler = new Scheduler({
    concurrency: deps.env.GUARD_PROBE_CONCURRENCY,
    onLag: (lagMs) => {
      stats.lastLagMs = lagMs
    },
    run: async (monitor) => {
      const result = await runCheck(monitor, location)
      stats.checks += 1
      try {
        await deps.bus.publish(resultSubject(location), encodeCheckResult(result), { msgId: result.id })
        stats.published += 1
      } catch (error) {
        stats.publishFailures += 1
        log.warn({ monitorId: monitor.id, err: error }, 'could not publish result')
      }
    },
  })
  const watcher = await watchMonitors(await deps.bus.kv(MONITORS_BUCKET), location, scheduler, log)

  const heartbeat = setInterval(() => {
    const beat = {
      location,
      monitors: scheduler.size,
      inFlight: scheduler.inFlight,
      ...stats,
      at: new Date().toISOString(),
    }
    deps.bus.emit(probeHeartbeatSubject(location), new TextEncoder().encode(JSON.stringify(beat))).catch(() => {})
  }, HEARTBEAT_MS)
  heartbeat.unref()
  log.info('probe watching monitors')

  return {
    location,
    stats,
    async close() {
      clearInterval(heartbeat)
      await watcher.stop()
      await scheduler.stop()
    },
  }
}
