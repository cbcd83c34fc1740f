import { decodeMonitorConfig, type KvBucket, type Logger, type Stoppable } from '@guard/shared'
import { runsHere } from './runs-here.ts'
import type { Scheduler } from './scheduler.ts'

/**
 * Follows the `monitors` bucket: additions, updates, pauses and deletions reach the scheduler
 * live. Once the watch has caught up, monitors scheduled from the disk cache that the bucket no
 * longer has are dropped, and a monitor that arrives new or edited is checked at once: during the
 * catch-up it is only the replay of what exists (a probe restart), which stays spread out.
 * `onChange` runs after every change to the schedule. Browser checks reach the scheduler only
 * when `browser` (this probe has one).
 */
export async function watchMonitors(
  monitors: KvBucket,
  location: string,
  scheduler: Scheduler,
  log: Logger,
  onChange: () => void = () => {},
  browser = false,
): Promise<Stoppable> {
  const seen = new Set<string>()
  let caughtUp = false
  return monitors.watch(
    (entry) => {
      if (!caughtUp) seen.add(entry.key)
      if (entry.operation === 'DEL' || entry.value === null) {
        scheduler.remove(entry.key)
      } else {
        try {
          const monitor = decodeMonitorConfig(entry.value)
          if (runsHere(monitor, location, browser)) scheduler.upsert(monitor, { checkNow: caughtUp })
          else scheduler.remove(monitor.id)
        } catch (error) {
          log.warn({ key: entry.key, err: error }, 'monitor config breaks the wire contract: not scheduled')
          scheduler.remove(entry.key)
        }
      }
      onChange()
    },
    {
      onCaughtUp: () => {
        caughtUp = true
        for (const monitor of scheduler.monitors()) if (!seen.has(monitor.id)) scheduler.remove(monitor.id)
        seen.clear()
        onChange()
      },
    },
  )
}
