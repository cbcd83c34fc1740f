import type { QuietHours } from '../channels/schemas.ts'

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5))

/** Weekday (0 = Sunday) and minute of the day at `at` in `timeZone`. */
function wallClock(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at)
  const part = (type: string) => parts.find((p) => p.type === type)!.value
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(part('weekday'))
  return { weekday, minute: Number(part('hour')) * 60 + Number(part('minute')) }
}

function quietAt(quiet: QuietHours, at: Date): boolean {
  const { weekday, minute } = wallClock(at, quiet.timeZone)
  const from = minutesOf(quiet.from)
  const to = minutesOf(quiet.to)
  if (from === to) return false
  const days = quiet.days
  if (from < to) return minute >= from && minute < to && (!days || days.includes(weekday))
  // Across midnight: the period belongs to the day it started on.
  if (minute >= from) return !days || days.includes(weekday)
  return minute < to && (!days || days.includes((weekday + 6) % 7))
}

/**
 * When the quiet period around `now` ends, or undefined when `now` is not quiet. Walks forward a
 * minute at a time in real time, so a daylight-saving change inside the period moves its end as
 * the wall clock does; a period is at most a day long.
 */
export function quietUntil(quiet: QuietHours | null, now: Date): Date | undefined {
  if (!quiet || !quietAt(quiet, now)) return undefined
  const start = Math.floor(now.getTime() / 60_000) * 60_000
  for (let step = 1; step <= 24 * 60 + 60; step++) {
    const at = new Date(start + step * 60_000)
    if (!quietAt(quiet, at)) return at
  }
  return undefined
}
