import { decodeMonitorConfig, type KvBucket, type Logger, monitorRunsAt, type Stoppable } from '@guard/shared'
import type { Scheduler } from './scheduler.ts'

/** Follows the `monitors` bucket: additions, updates, pauses and deletions reach the scheduler live. */
export async function watchMonitors(
  monitors: KvBucket,
  location: string,
  scheduler: Scheduler,
  log: Logger,
): Promise<Stoppable> {
  return monitors.watch((entry) => {
    if (entry.operation === 'DEL' || entry.value === null) {
      scheduler.remove(entry.key)
      return
    }
    try {
      const monitor = decodeMonitorConfig(entry.value)
      if (monitorRunsAt(monitor, location)) scheduler.upsert(monitor)
      else scheduler.remove(monitor.id)
    } catch (error) {
      log.warn({ key: entry.key, err: error }, 'monitor config breaks the wire contract: not scheduled')
      scheduler.remove(entry.key)
    }
  })
}
