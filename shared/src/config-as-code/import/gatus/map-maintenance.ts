import { parseDuration } from '../../../conditions/duration.ts'
import type { DocumentEntry, UnmappedItem } from '../import-result.ts'
import type { GatusMaintenance } from './gatus-schema.ts'

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const DAY_MS = 86_400_000

/** Minutes `timeZone` is ahead of UTC at the instant `at`. */
function offsetMinutes(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at))
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value)
  return Math.round(
    (Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at) / 60_000,
  )
}

/** The instant of a wall-clock time in `timeZone`, and the zone's offset then. */
function zonedInstant(day: number, minutes: number, timeZone: string) {
  const wall = day + minutes * 60_000
  const offset = offsetMinutes(wall - offsetMinutes(wall, timeZone) * 60_000, timeZone)
  return { at: wall - offset * 60_000, offset }
}

/** ISO 8601 in the zone's offset, as the window was written: `2026-11-30T23:00:00+01:00`. */
function isoWithOffset(at: number, offset: number): string {
  const sign = offset < 0 ? '-' : '+'
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0')
  return `${new Date(at + offset * 60_000).toISOString().slice(0, 19)}${sign}${hours}:${minutes}`
}

const validZone = (timeZone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone })
    return true
  } catch {
    return false
  }
}

export interface MaintenanceContext {
  now: Date
  allocateId: (...candidates: string[]) => string
  unmapped: UnmappedItem[]
}

/**
 * A Gatus maintenance window (start, duration, timezone, every: [days]) → Guard windows repeating
 * daily, or weekly one per day named. The first occurrence is the next one from `now` (a past
 * start would do as well: a window repeats from its start).
 */
export function mapMaintenanceWindow(
  window: GatusMaintenance,
  at: { source: string; item: string; title: string; idBase: string; monitors?: string[] },
  context: MaintenanceContext,
): DocumentEntry[] {
  const skip = (reason: string) => {
    context.unmapped.push({ source: at.source, item: at.item, reason })
    return []
  }
  if (window.enabled === false) return skip('disabled in Gatus')
  const start = /^(\d{1,2}):(\d{2})$/.exec(window.start)
  if (!start || Number(start[1]) > 23 || Number(start[2]) > 59) return skip(`start ${window.start} is not HH:MM`)
  const length = parseDuration(window.duration)
  if (length === undefined || length <= 0) return skip(`duration ${window.duration} is not a duration such as 1h`)
  const timeZone = window.timezone ?? 'UTC'
  if (!validZone(timeZone)) return skip(`${timeZone} is not an IANA time zone`)
  const days = (window.every ?? []).map((day) => DAYS.indexOf(day.toLowerCase()))
  if (days.includes(-1)) return skip(`every: ${window.every?.join(', ')} names something other than a weekday`)
  const minutes = Number(start[1]) * 60 + Number(start[2])
  const today = Date.UTC(context.now.getUTCFullYear(), context.now.getUTCMonth(), context.now.getUTCDate())
  const year = context.now.getUTCFullYear()
  if (offsetMinutes(Date.UTC(year, 0, 1), timeZone) !== offsetMinutes(Date.UTC(year, 6, 1), timeZone)) {
    context.unmapped.push({
      source: at.source,
      item: `${at.item}.timezone`,
      reason: `Guard repeats a window every 24 hours or 7 days from its start; ${timeZone} observes daylight saving time, so the window moves by an hour across each change`,
    })
  }
  const occurrences =
    days.length === 0 || new Set(days).size === 7
      ? [{ day: today, recurrence: 'daily', suffix: '' }]
      : [...new Set(days)].map((weekday) => ({
          day: today + ((weekday - new Date(today).getUTCDay() + 7) % 7) * DAY_MS,
          recurrence: 'weekly',
          suffix: DAYS[weekday]!,
        }))
  return occurrences.map(({ day, recurrence, suffix }) => {
    const { at: begins, offset } = zonedInstant(day, minutes, timeZone)
    return {
      id: context.allocateId(suffix ? `${at.idBase}-${suffix}` : at.idBase),
      title: at.title,
      startsAt: isoWithOffset(begins, offset),
      endsAt: isoWithOffset(begins + length, offset),
      recurrence,
      until: null,
      ...(at.monitors ? { monitors: at.monitors } : {}),
    }
  })
}
