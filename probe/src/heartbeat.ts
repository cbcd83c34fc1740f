import type { ProbeHeartbeat } from '@guard/shared'
import type { LagWindow } from './lag-window.ts'
import type { Outbox } from './outbox/outbox.ts'

export interface HeartbeatSources {
  location: string
  instance: string
  version: string
  outbox: Outbox
  lags: LagWindow
  monitors: () => number
  inFlight: () => number
  checksDone: () => number
  /** GUARD_PROBE_BROWSER is set: this probe runs browser checks. */
  browser: boolean
}

/** Builds successive heartbeats; checks per second covers the time since the previous one. */
export function heartbeats(sources: HeartbeatSources): () => ProbeHeartbeat {
  let previousChecks = sources.checksDone()
  let previousAt = performance.now()
  return () => {
    const now = performance.now()
    const checks = sources.checksDone()
    const seconds = Math.max(0.001, (now - previousAt) / 1000)
    const checksPerSecond = Math.round(((checks - previousChecks) / seconds) * 100) / 100
    previousChecks = checks
    previousAt = now
    return {
      v: 1,
      location: sources.location,
      instance: sources.instance,
      version: sources.version,
      at: new Date().toISOString(),
      monitors: sources.monitors(),
      inFlight: sources.inFlight(),
      checksPerSecond,
      scheduleLagP50Ms: sources.lags.percentile(50),
      scheduleLagP99Ms: sources.lags.percentile(99),
      outboxDepth: sources.outbox.depth,
      outboxBytes: sources.outbox.bytes,
      outboxDropped: sources.outbox.droppedTotal,
      browser: sources.browser,
    }
  }
}
