import { describe, expect, it } from 'vitest'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import {
  budgetFigures,
  burnDown,
  burnRate,
  burnThreshold,
  combineMembers,
  downIntervals,
  emptyMask,
  firingAlert,
  MINUTE_MS,
  markCovered,
  markIntervals,
  type ResultPoint,
  windowBounds,
} from './arithmetic.ts'

const NOW = Date.parse('2024-03-10T00:00:00Z')
const DAY = windowBounds({ type: 'rolling', days: 1 }, NOW)
const minute = (index: number, seconds = 0) => DAY.from + index * MINUTE_MS + seconds * 1000

/** One check a minute at `location` over the day, failing in the minutes `failing` names. */
const checks = (location: string, failing: (index: number) => boolean, offsetSeconds = 0): ResultPoint[] =>
  Array.from({ length: 1440 }, (_, index) => ({ location, at: minute(index, offsetSeconds), failed: failing(index) }))

const badMask = (points: ResultPoint[], from = DAY.from, to = DAY.to) =>
  markIntervals(emptyMask(from, to), downIntervals(points, DEFAULT_RULES, to))

describe('SLO arithmetic', () => {
  it('counts a rolling day: the second failed check takes the monitor down, the first success brings it up', () => {
    const bad = badMask(checks('fra', (index) => index >= 100 && index < 110))
    const figures = budgetFigures(bad, emptyMask(DAY.from, DAY.to), 99, DAY, NOW)
    // Down from minute 101 (second failure) to minute 110 (first success): 9 bad minutes of 1,440.
    expect(figures).toEqual({
      goodMinutes: 1431,
      badMinutes: 9,
      sli: 99.375,
      budgetMinutes: 14.4,
      remainingMinutes: 5.4,
      remainingPercent: 37.5,
    })
  })

  it('applies the location quorum: one failing location of three is no bad minute, two are', () => {
    const points = [
      ...checks('a', (index) => (index >= 10 && index < 20) || (index >= 30 && index < 40), 0),
      ...checks('b', (index) => index >= 15 && index < 25, 10),
      ...checks('c', () => false, 20),
    ]
    const bad = badMask(points)
    // a fails from 11:00 to 20:00, b from 16:10 to 25:10: two of three (the 50 % quorum) from 16:10 to 20:00.
    expect(downIntervals(points, DEFAULT_RULES, DAY.to)).toEqual([{ from: minute(16, 10), to: minute(20) }])
    expect(budgetFigures(bad, emptyMask(DAY.from, DAY.to), 99.9, DAY, NOW).badMinutes).toBe(4)
  })

  it('leaves maintenance out of the budget: its minutes are neither good nor bad', () => {
    const bad = badMask(checks('fra', (index) => index >= 100 && index < 110))
    const maintenance = markCovered(emptyMask(DAY.from, DAY.to), (at) => at >= minute(100) && at < minute(105))
    // Bad minutes 101-109 less 101-104 under maintenance: 5 bad of 1,435 eligible.
    expect(budgetFigures(bad, maintenance, 99, DAY, NOW)).toEqual({
      goodMinutes: 1430,
      badMinutes: 5,
      sli: 99.652,
      budgetMinutes: 14.35,
      remainingMinutes: 9.35,
      remainingPercent: 65.157,
    })
  })

  it('gives a calendar month its whole budget from the first day and burns it down day by day', () => {
    const now = Date.parse('2024-02-10T00:00:00Z')
    const month = windowBounds({ type: 'calendar-month' }, now)
    expect(month).toEqual({ from: Date.parse('2024-02-01T00:00:00Z'), to: Date.parse('2024-03-01T00:00:00Z') })
    const outage = { from: Date.parse('2024-02-03T10:00:00Z'), to: Date.parse('2024-02-03T10:30:00Z') }
    const bad = markIntervals(emptyMask(month.from, now), [outage])
    const excluded = emptyMask(month.from, month.to)
    const figures = budgetFigures(bad, excluded, 99.9, month, now)
    // February 2024 has 41,760 minutes: 41.76 minutes of budget; 9 days (12,960 minutes) elapsed.
    expect(figures).toEqual({
      goodMinutes: 12_930,
      badMinutes: 30,
      sli: 99.769,
      budgetMinutes: 41.76,
      remainingMinutes: 11.76,
      remainingPercent: 28.161,
    })
    const days = burnDown(bad, excluded, figures.budgetMinutes, month, now)
    expect(days.map((day) => day.date)).toEqual([
      '2024-02-01',
      '2024-02-02',
      '2024-02-03',
      '2024-02-04',
      '2024-02-05',
      '2024-02-06',
      '2024-02-07',
      '2024-02-08',
      '2024-02-09',
    ])
    expect(days[1]).toEqual({ date: '2024-02-02', badMinutes: 0, remainingMinutes: 41.76, remainingPercent: 100 })
    expect(days[2]).toEqual({ date: '2024-02-03', badMinutes: 30, remainingMinutes: 11.76, remainingPercent: 28.161 })
    expect(days[8]!.remainingMinutes).toBe(11.76)
  })

  it('counts an outage that began before the window only from the window start', () => {
    const points: ResultPoint[] = [
      { location: 'fra', at: DAY.from - 10 * MINUTE_MS, failed: true },
      { location: 'fra', at: DAY.from - 9 * MINUTE_MS, failed: true },
      { location: 'fra', at: minute(3), failed: false },
    ]
    expect(budgetFigures(badMask(points), emptyMask(DAY.from, DAY.to), 99, DAY, NOW).badMinutes).toBe(3)
  })

  it('takes a group down when enough members are bad by its rule', () => {
    const first = markIntervals(emptyMask(DAY.from, DAY.to), [{ from: minute(0), to: minute(10) }])
    const second = markIntervals(emptyMask(DAY.from, DAY.to), [{ from: minute(5), to: minute(15) }])
    const none = emptyMask(DAY.from, DAY.to)
    const excluded = emptyMask(DAY.from, DAY.to)
    const badOf = (percent: number | null) =>
      budgetFigures(combineMembers(DAY.from, DAY.to, [first, second, none], percent), excluded, 99, DAY, NOW).badMinutes
    expect(badOf(null)).toBe(15)
    expect(badOf(50)).toBe(5)
    expect(badOf(100)).toBe(0)
  })

  it('reads burn rates and fires a multi-window alert only while both windows burn', () => {
    const now = Date.parse('2024-03-30T12:00:00Z')
    const window = windowBounds({ type: 'rolling', days: 30 }, now)
    const alert = { budgetPercent: 2, longWindowMinutes: 60, shortWindowMinutes: 5, severity: 'critical' as const }
    expect(burnThreshold(alert, 30 * 1440)).toBe(14.4)
    const excluded = emptyMask(window.from, now)
    const bad = markIntervals(emptyMask(window.from, now), [{ from: now - 3 * MINUTE_MS, to: now - 2 * MINUTE_MS }])
    // One bad minute: 1/60 of the last hour over a 0.1 % allowance is 16.667; of the last 5 minutes, 200.
    expect(burnRate(bad, excluded, 99.9, now - 60 * MINUTE_MS, now)).toBe(16.667)
    expect(firingAlert([alert], bad, excluded, 99.9, 30 * 1440, now)).toEqual({
      alert,
      threshold: 14.4,
      longBurnRate: 16.667,
      shortBurnRate: 200,
    })
    // Five minutes on, the short window is clean again: the alert clears though the hour still burns.
    const later = now + 5 * MINUTE_MS
    const laterBad = markIntervals(emptyMask(window.from, later), [
      { from: now - 3 * MINUTE_MS, to: now - 2 * MINUTE_MS },
    ])
    expect(firingAlert([alert], laterBad, emptyMask(window.from, later), 99.9, 30 * 1440, later)).toBeUndefined()
  })
})
