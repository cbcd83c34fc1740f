import { type LocationState, type QuorumRules, quorumStatus } from '../monitor-state/transition.ts'

export const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/** One stored check result, as much of it as the quorum needs. */
export interface ResultPoint {
  location: string
  at: number
  failed: boolean
}

export interface Interval {
  from: number
  to: number
}

export type SloWindow = { type: 'rolling'; days: number } | { type: 'calendar-month' }

/**
 * When the monitor was down by the incidents' quorum rule (monitor-state/transition.ts), replaying
 * its results oldest first; a down still going at `until` ends there. Results at one location
 * not newer than the last seen there are ignored, as the state machine ignores them.
 */
export function downIntervals(points: ResultPoint[], rules: QuorumRules, until: number): Interval[] {
  const locations = new Map<string, LocationState>()
  const intervals: Interval[] = []
  let downSince: number | undefined
  for (const point of [...points].sort((a, b) => a.at - b.at)) {
    const previous = locations.get(point.location)
    if (previous && previous.lastResultAt >= point.at) continue
    locations.set(point.location, {
      status: point.failed ? 'down' : 'up',
      consecutiveFailures: point.failed ? (previous?.consecutiveFailures ?? 0) + 1 : 0,
      lastResultAt: point.at,
      lastError: null,
    })
    const down = quorumStatus(locations.values(), rules) === 'down'
    if (down && downSince === undefined) downSince = point.at
    if (!down && downSince !== undefined) {
      intervals.push({ from: downSince, to: point.at })
      downSince = undefined
    }
  }
  if (downSince !== undefined && downSince < until) intervals.push({ from: downSince, to: until })
  return intervals
}

/** Minute `i` of the mask is [start + i min, start + (i+1) min); a set byte marks it. */
export interface MinuteMask {
  start: number
  bits: Uint8Array
}

export const emptyMask = (start: number, end: number): MinuteMask => ({
  start,
  bits: new Uint8Array(Math.max(0, Math.ceil((end - start) / MINUTE_MS))),
})

/** Marks every minute an interval touches: a minute with any down time in it is a bad minute. */
export function markIntervals(mask: MinuteMask, intervals: Interval[]): MinuteMask {
  for (const interval of intervals) {
    const first = Math.max(0, Math.floor((interval.from - mask.start) / MINUTE_MS))
    const last = Math.min(mask.bits.length - 1, Math.ceil((interval.to - mask.start) / MINUTE_MS) - 1)
    for (let index = first; index <= last; index += 1) mask.bits[index] = 1
  }
  return mask
}

/** Marks the minutes whose start `covers` (a maintenance window) covers. */
export function markCovered(mask: MinuteMask, covers: (at: number) => boolean): MinuteMask {
  for (let index = 0; index < mask.bits.length; index += 1) {
    if (covers(mask.start + index * MINUTE_MS)) mask.bits[index] = 1
  }
  return mask
}

/**
 * A group's bad minutes from its members': bad when at least `percent` % of the members are bad
 * (the `any` and `all` rules are 1 member: a group not wholly up misses its objective).
 */
export function combineMembers(start: number, end: number, members: MinuteMask[], percent: number | null): MinuteMask {
  const mask = emptyMask(start, end)
  if (members.length === 0) return mask
  const needed = percent === null ? 1 : Math.max(1, Math.ceil((percent * members.length) / 100))
  for (let index = 0; index < mask.bits.length; index += 1) {
    let bad = 0
    for (const member of members) bad += member.bits[index] ?? 0
    if (bad >= needed) mask.bits[index] = 1
  }
  return mask
}

/** The window an SLO is judged over at `now`: rolling ends now; a calendar month runs to its end (UTC). */
export function windowBounds(window: SloWindow, now: number): Interval {
  if (window.type === 'rolling') {
    const to = Math.floor(now / MINUTE_MS) * MINUTE_MS
    return { from: to - window.days * DAY_MS, to }
  }
  const date = new Date(now)
  return {
    from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    to: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  }
}

export const monthBounds = (month: string): Interval => {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number]
  return { from: Date.UTC(year, monthNumber - 1, 1), to: Date.UTC(year, monthNumber, 1) }
}

const count = (mask: MinuteMask, from: number, to: number, where: (index: number) => boolean) => {
  const first = Math.max(0, Math.floor((from - mask.start) / MINUTE_MS))
  const last = Math.min(mask.bits.length, Math.floor((to - mask.start) / MINUTE_MS))
  let total = 0
  for (let index = first; index < last; index += 1) if (where(index)) total += 1
  return total
}

/** Bad minutes (not excluded) and eligible minutes (not excluded) in [from, to). */
export function tally(bad: MinuteMask, excluded: MinuteMask, from: number, to: number) {
  return {
    bad: count(bad, from, to, (index) => bad.bits[index] === 1 && excluded.bits[index] !== 1),
    eligible: count(bad, from, to, (index) => excluded.bits[index] !== 1),
  }
}

export const round3 = (value: number) => Math.round(value * 1000) / 1000

/**
 * How fast the budget burns in [from, to): the share of eligible minutes that were bad over the
 * share the objective allows. 1 spends the budget exactly by the window's end; null without an
 * eligible minute.
 */
export function burnRate(bad: MinuteMask, excluded: MinuteMask, objective: number, from: number, to: number) {
  const figures = tally(bad, excluded, from, to)
  if (figures.eligible === 0) return null
  return round3(figures.bad / figures.eligible / (1 - objective / 100))
}

export interface BudgetFigures {
  goodMinutes: number
  badMinutes: number
  /** Percent of the elapsed eligible minutes that were good; null before the first one. */
  sli: number | null
  budgetMinutes: number
  remainingMinutes: number
  remainingPercent: number
}

/**
 * The error budget of `window` as seen at `now`: the objective's share of the window's eligible
 * minutes (maintenance excluded), less the bad minutes so far. A calendar month's budget is the
 * whole month's, so it shrinks only by bad minutes and not by the passing of time.
 */
export function budgetFigures(
  bad: MinuteMask,
  excluded: MinuteMask,
  objective: number,
  window: Interval,
  now: number,
): BudgetFigures {
  const elapsed = tally(bad, excluded, window.from, Math.min(now, window.to))
  const totalMinutes = Math.round((window.to - window.from) / MINUTE_MS)
  const futureExcluded = count(excluded, Math.min(now, window.to), window.to, (index) => excluded.bits[index] === 1)
  const elapsedMinutes = Math.max(0, Math.floor((Math.min(now, window.to) - window.from) / MINUTE_MS))
  const eligibleTotal = totalMinutes - (elapsedMinutes - elapsed.eligible) - futureExcluded
  const budgetMinutes = round3(((100 - objective) / 100) * eligibleTotal)
  const remainingMinutes = round3(budgetMinutes - elapsed.bad)
  return {
    goodMinutes: elapsed.eligible - elapsed.bad,
    badMinutes: elapsed.bad,
    sli: elapsed.eligible === 0 ? null : round3(((elapsed.eligible - elapsed.bad) / elapsed.eligible) * 100),
    budgetMinutes,
    remainingMinutes,
    remainingPercent: budgetMinutes === 0 ? 0 : round3((remainingMinutes / budgetMinutes) * 100),
  }
}

export interface BurnDownDay {
  date: string
  badMinutes: number
  remainingMinutes: number
  remainingPercent: number
}

/** Per UTC day of the window up to `now`: that day's bad minutes and the budget left at its end. */
export function burnDown(
  bad: MinuteMask,
  excluded: MinuteMask,
  budgetMinutes: number,
  window: Interval,
  now: number,
): BurnDownDay[] {
  const days: BurnDownDay[] = []
  let spent = 0
  const end = Math.min(now, window.to)
  for (let dayStart = Math.floor(window.from / DAY_MS) * DAY_MS; dayStart < end; dayStart += DAY_MS) {
    const day = tally(bad, excluded, Math.max(dayStart, window.from), Math.min(dayStart + DAY_MS, end))
    spent += day.bad
    const remainingMinutes = round3(budgetMinutes - spent)
    days.push({
      date: new Date(dayStart).toISOString().slice(0, 10),
      badMinutes: day.bad,
      remainingMinutes,
      remainingPercent: budgetMinutes === 0 ? 0 : round3((remainingMinutes / budgetMinutes) * 100),
    })
  }
  return days
}

export interface BurnAlert {
  budgetPercent: number
  longWindowMinutes: number
  shortWindowMinutes: number
  severity: 'low' | 'medium' | 'high' | 'critical'
}

/**
 * The burn rate at which `budgetPercent` % of the budget goes in `longWindowMinutes` (Google's SRE
 * workbook: 2 % of a 30-day budget in 1 h is 14.4).
 */
export const burnThreshold = (alert: BurnAlert, windowMinutes: number) =>
  round3(((alert.budgetPercent / 100) * windowMinutes) / alert.longWindowMinutes)

export interface FiringAlert {
  alert: BurnAlert
  threshold: number
  longBurnRate: number
  shortBurnRate: number
}

/**
 * The first burn alert whose long and short windows both burn at or above its threshold at `now`:
 * the long window proves the budget is really going, the short one that it still is (so an alert
 * clears soon after the trouble ends). Undefined: none fires.
 */
export function firingAlert(
  alerts: BurnAlert[],
  bad: MinuteMask,
  excluded: MinuteMask,
  objective: number,
  windowMinutes: number,
  now: number,
): FiringAlert | undefined {
  const end = Math.floor(now / MINUTE_MS) * MINUTE_MS
  for (const alert of alerts) {
    const threshold = burnThreshold(alert, windowMinutes)
    const longBurnRate = burnRate(bad, excluded, objective, end - alert.longWindowMinutes * MINUTE_MS, end)
    const shortBurnRate = burnRate(bad, excluded, objective, end - alert.shortWindowMinutes * MINUTE_MS, end)
    if (longBurnRate !== null && shortBurnRate !== null && longBurnRate >= threshold && shortBurnRate >= threshold) {
      return { alert, threshold, longBurnRate, shortBurnRate }
    }
  }
  return undefined
}
