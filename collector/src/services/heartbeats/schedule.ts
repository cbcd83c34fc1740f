import { Cron } from 'croner'

/** When a heartbeat monitor expects its job: a fixed period, or a cron expression in a time zone. */
export type HeartbeatSchedule = { every: number } | { cron: string; timezone: string }

/** A time zone the runtime knows (IANA name), or undefined. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** Why a cron expression is refused, or undefined when croner accepts it (5 or 6 fields). */
export function cronProblem(expression: string, timezone: string): string | undefined {
  if (!isTimeZone(timezone)) return `unknown time zone ${timezone}`
  try {
    const cron = new Cron(expression, { timezone, paused: true, mode: '5-or-6-parts' })
    if (!cron.nextRun(new Date())) return 'never fires'
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * The first expected time strictly after `after`. Cron times are wall-clock times in the schedule's
 * time zone, so `0 3 * * *` in Europe/Amsterdam is 01:00 UTC in summer and 02:00 UTC in winter; a
 * time that a DST change skips or repeats is expected once (croner's rule).
 */
export function nextExpected(schedule: HeartbeatSchedule, after: Date): Date {
  if ('every' in schedule) return new Date(after.getTime() + schedule.every * 1000)
  const next = new Cron(schedule.cron, { timezone: schedule.timezone, paused: true, mode: '5-or-6-parts' }).nextRun(
    after,
  )
  // A cron that never fires again (a past year) expects nothing: a deadline far away keeps it quiet.
  return next ?? new Date(after.getTime() + 100 * 365 * 86_400_000)
}

/** The next `count` expected times after `after`, for the console's cron helper and the API. */
export function nextExpectedTimes(schedule: HeartbeatSchedule, after: Date, count: number): Date[] {
  const times: Date[] = []
  let from = after
  for (let index = 0; index < count; index += 1) {
    from = nextExpected(schedule, from)
    times.push(from)
  }
  return times
}

/** The typical gap between two expected times, in seconds, for look-backs sized by interval. */
export function periodSeconds(schedule: HeartbeatSchedule, now: Date): number {
  if ('every' in schedule) return schedule.every
  const [first, second] = nextExpectedTimes(schedule, now, 2)
  return Math.max(1, Math.round((second!.getTime() - first!.getTime()) / 1000))
}
