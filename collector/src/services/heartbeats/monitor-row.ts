import { HEARTBEAT_LOCATION } from './results.ts'
import { type HeartbeatSchedule, periodSeconds } from './schedule.ts'

/**
 * The monitor layer's fields for a heartbeat: one pseudo-location whose every result counts (one
 * failed or missed run takes it down, one success brings it up), and the period as its interval so
 * look-backs sized by interval (recent checks, uptime) fit it.
 */
export function monitorRowFields(schedule: HeartbeatSchedule, now: Date) {
  const checkInterval = Math.min(31_536_000, periodSeconds(schedule, now))
  return {
    target: JSON.stringify({ kind: 'heartbeat' }),
    checkInterval,
    timeout: 1,
    locations: [HEARTBEAT_LOCATION],
    failureThreshold: 1,
    quorumPercent: 100,
  }
}
