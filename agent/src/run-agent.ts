import type { AgentHeartbeat } from '@guard/shared'
import type { Logger } from '@guard/shared/logger'
import { backoffDelay } from './backoff.ts'
import { collectInventory } from './collect-inventory.ts'
import { collectMetrics } from './collect-metrics.ts'
import type { AgentConfig } from './config.ts'
import { sendHeartbeat } from './send-heartbeat.ts'
import { Spool } from './spool.ts'

export interface RunningAgent {
  spool: Spool
  stats: { collected: number; sent: number; rejected: number; failures: number }
  stop(): Promise<void>
}

const RETRY_BASE_MS = 1000
/** Below the collector's 90 s offline minimum, so a returning collector hears from every agent in time. */
const RETRY_MAX_MS = 60_000

/**
 * Two loops. The collector loop samples every interval and puts the heartbeat in the spool (with
 * inventories every few minutes); the sender loop sends the spool oldest first, each heartbeat
 * with its own timestamp, removing it only once the collector answered 200. Failures back off with
 * jitter; nothing the collector answers stops either loop.
 */
export async function startAgent(
  config: AgentConfig,
  log: Logger,
  options: {
    /** Called once an inventory is in the spool (and its garbage is unreachable); see node-flags.ts. */
    afterInventory?: () => void
  } = {},
): Promise<RunningAgent> {
  const spool = await Spool.open(config.spoolDir, {
    maxBytes: config.spoolMaxMb * 1024 * 1024,
    maxAgeMs: config.spoolMaxAgeHours * 3_600_000,
  })
  if (spool.size > 0) log.info({ waiting: spool.size }, 'heartbeats left in the spool will be sent first')
  const stats = { collected: 0, sent: 0, rejected: 0, failures: 0 }
  let stopped = false
  // An idle sender wakes for a new heartbeat; one backing off wakes only to stop.
  let wake: () => void = () => {}
  let interrupt: () => void = () => {}
  const sleep = (ms: number, idle: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wake = () => {}
        interrupt = () => {}
        resolve()
      }
      interrupt = done
      if (idle) wake = done
    })

  let nextInventory = 0
  const collect = async () => {
    const now = Date.now()
    const { metrics, network } = await collectMetrics()
    const heartbeat: AgentHeartbeat = {
      device_id: config.deviceId,
      metrics,
      timestamp: new Date(now).toISOString(),
      interval_seconds: config.intervalSeconds,
      ...(network && network.length > 0 ? { network } : {}),
    }
    const withInventory = now >= nextInventory
    if (withInventory) {
      nextInventory = now + config.inventoryIntervalSeconds * 1000
      Object.assign(
        heartbeat,
        await collectInventory((part, error) => log.warn({ part, err: error }, 'inventory part not collected')),
      )
    }
    await spool.add(heartbeat, now)
    stats.collected += 1
    return withInventory
  }

  let collectTimer: NodeJS.Timeout | undefined
  const collectLoop = async () => {
    const started = Date.now()
    try {
      if (await collect()) options.afterInventory?.()
      wake()
    } catch (error) {
      log.error({ err: error }, 'collecting metrics failed; next interval tries again')
    }
    if (stopped) return
    const elapsed = Date.now() - started
    collectTimer = setTimeout(collectLoop, Math.max(0, config.intervalSeconds * 1000 - elapsed))
  }

  const sendLoop = async () => {
    let attempt = 0
    let droppedSeen = spool.dropped
    while (!stopped) {
      const next = await spool.peek().catch((error: unknown) => {
        log.error({ err: error }, 'reading the spool failed')
        return undefined
      })
      if (spool.dropped > droppedSeen) {
        log.warn({ dropped: spool.dropped - droppedSeen, total: spool.dropped }, 'spool limits dropped old heartbeats')
        droppedSeen = spool.dropped
      }
      if (!next) {
        await sleep(config.intervalSeconds * 1000, true)
        continue
      }
      const outcome = await sendHeartbeat(config.collectorUrl, config.token, next.body)
      if (outcome.kind === 'stored') {
        await spool.remove(next.name)
        stats.sent += 1
        if (attempt > 0) log.info({ waiting: spool.size }, 'collector reachable again; sending the spool')
        attempt = 0
        continue
      }
      if (outcome.kind === 'rejected') {
        log.error({ status: outcome.status, reason: outcome.reason }, 'collector refused a heartbeat; dropped')
        await spool.remove(next.name)
        stats.rejected += 1
        continue
      }
      attempt += 1
      stats.failures += 1
      const delay = Math.max(outcome.afterMs ?? 0, backoffDelay(attempt, RETRY_BASE_MS, RETRY_MAX_MS))
      log.warn(
        { reason: outcome.reason, retryInMs: delay, waiting: spool.size },
        'heartbeat not delivered; kept in the spool',
      )
      await sleep(delay, false)
    }
  }

  const sending = sendLoop()
  await collectLoop()
  return {
    spool,
    stats,
    async stop() {
      stopped = true
      clearTimeout(collectTimer)
      interrupt()
      await sending
    },
  }
}
