import type { ImportContext } from './context.ts'
import { idAllocator } from './keys.ts'
import type { KumaMaintenance } from './source.ts'

type Entry = { id: string } & Record<string, unknown>

const DAY_MS = 86_400_000
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']

/** The instant a wall-clock time (`2026-03-01 22:00[:00]`) is in an IANA time zone, as ISO 8601 UTC. */
export function zonedInstant(local: string, timeZone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(local)
  if (!match) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[]
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!)
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  })
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)]))
    return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - instant
  }
  // Twice: the offset at the first guess may differ from the one at the answer across a DST change.
  let instant = wall - offsetAt(wall)
  instant = wall - offsetAt(instant)
  return new Date(instant).toISOString()
}

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** `02:00` or `02:00:00` as minutes after midnight. */
const minutesOf = (time: string | undefined) => {
  const match = /^(\d{1,2}):(\d{2})/.exec(time ?? '')
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined
}

interface Occurrence {
  startsAt: string
  endsAt: string
  recurrence: 'none' | 'daily' | 'weekly'
  until: string | null
}

/**
 * A recurring window from the first day on or after the start date that `matches`, at the start
 * time, as long as start to end time (past midnight when the end is earlier).
 */
function recurring(
  maintenance: KumaMaintenance,
  zone: string,
  recurrence: 'daily' | 'weekly',
  weekday?: number,
): Occurrence | undefined {
  const from = minutesOf(maintenance.start_time)
  const to = minutesOf(maintenance.end_time)
  const date = /^\d{4}-\d{2}-\d{2}/.exec(maintenance.start_date ?? '')?.[0]
  if (from === undefined || to === undefined || !date) return undefined
  let day = Date.parse(`${date}T00:00:00Z`)
  while (weekday !== undefined && new Date(day).getUTCDay() !== weekday) day += DAY_MS
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
  const startsAt = zonedInstant(`${new Date(day).toISOString().slice(0, 10)} ${clock(from)}`, zone)!
  const length = (to > from ? to - from : to - from + 24 * 60) * 60_000
  const until = maintenance.end_date ? (zonedInstant(maintenance.end_date, zone) ?? null) : null
  return { startsAt, endsAt: new Date(Date.parse(startsAt) + length).toISOString(), recurrence, until }
}

/** Uptime Kuma's strategies as Guard windows (one-off, daily, weekly), or why not. */
function occurrences(maintenance: KumaMaintenance, zone: string): Array<[string, Occurrence]> | string {
  switch (maintenance.strategy) {
    case 'single': {
      const startsAt = maintenance.start_date && zonedInstant(maintenance.start_date, zone)
      const endsAt = maintenance.end_date && zonedInstant(maintenance.end_date, zone)
      if (!startsAt || !endsAt) return 'it has no start and end date'
      return [['', { startsAt, endsAt, recurrence: 'none', until: null }]]
    }
    case 'recurring-interval': {
      const recurrence =
        maintenance.interval_day === 1 ? 'daily' : maintenance.interval_day === 7 ? 'weekly' : undefined
      if (!recurrence) return `Guard windows repeat daily or weekly, not every ${maintenance.interval_day} days`
      const occurrence = recurring(maintenance, zone, recurrence)
      return occurrence ? [['', occurrence]] : 'it has no start date and time range'
    }
    case 'recurring-weekday': {
      const days = [...new Set(JSON.parse(maintenance.weekdays ?? '[]') as number[])].map((day) => day % 7).sort()
      if (days.length === 0) return 'it names no weekday'
      if (days.length === 7) {
        const occurrence = recurring(maintenance, zone, 'daily')
        return occurrence ? [['', occurrence]] : 'it has no start date and time range'
      }
      const windows: Array<[string, Occurrence]> = []
      for (const day of days) {
        const occurrence = recurring(maintenance, zone, 'weekly', day)
        if (!occurrence) return 'it has no start date and time range'
        windows.push([days.length > 1 ? `-${WEEKDAYS[day]}` : '', occurrence])
      }
      return windows
    }
    case 'manual':
      return 'it is started and stopped by hand; Guard windows have times'
    default:
      return `Guard windows repeat daily or weekly, not by ${maintenance.strategy}`
  }
}

/**
 * Maintenance windows with the monitors they cover (by document id); a weekday strategy on
 * several days becomes one weekly window per day. Times are Uptime Kuma's wall clock in the
 * window's time zone, written as UTC instants.
 */
export function mapMaintenance(
  maintenances: KumaMaintenance[],
  monitorsOf: (maintenanceId: number) => string[],
  context: ImportContext,
): Entry[] {
  const windowId = idAllocator('maintenance')
  const entries: Entry[] = []
  for (const maintenance of maintenances) {
    if (!maintenance.active) {
      context.leave('maintenance', maintenance.title, 'it is paused; Guard windows are always on')
      continue
    }
    const monitors = monitorsOf(maintenance.id)
    if (monitors.length === 0) {
      context.leave('maintenance', maintenance.title, 'it covers no imported monitor (status pages only, or none)')
      continue
    }
    let zone = maintenance.timezone ?? 'UTC'
    if (!isTimeZone(zone)) {
      context.leave(
        'maintenance',
        `${maintenance.title}: time zone`,
        `"${zone}" (the server's) is unknown here; times read as UTC`,
      )
      zone = 'UTC'
    }
    const windows = occurrences(maintenance, zone)
    if (typeof windows === 'string') {
      context.leave('maintenance', maintenance.title, windows)
      continue
    }
    for (const [suffix, occurrence] of windows) {
      entries.push({
        id: windowId(`${maintenance.title}${suffix}`),
        title: maintenance.title.slice(0, 200),
        ...occurrence,
        monitors,
      })
    }
  }
  return entries
}
