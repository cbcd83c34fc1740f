import { describe, expect, it } from 'vitest'
import { cronProblem, nextExpected, nextExpectedTimes, periodSeconds } from './schedule.ts'

const iso = (dates: Date[]) => dates.map((date) => date.toISOString())
const amsterdam = (cron: string) => ({ cron, timezone: 'Europe/Amsterdam' })

describe('heartbeat schedules', () => {
  it('adds the period to the last ping', () => {
    expect(nextExpected({ every: 3600 }, new Date('2026-01-01T00:00:00Z')).toISOString()).toBe(
      '2026-01-01T01:00:00.000Z',
    )
  })

  it('keeps a daily 03:00 at 03:00 local time when the clocks go forward (CET to CEST)', () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST; 03:00 local is 02:00 UTC before, 01:00 UTC after.
    expect(iso(nextExpectedTimes(amsterdam('0 3 * * *'), new Date('2026-03-27T12:00:00Z'), 3))).toEqual([
      '2026-03-28T02:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T01:00:00.000Z',
    ])
  })

  it('keeps a daily 03:00 at 03:00 local time when the clocks go back (CEST to CET)', () => {
    expect(iso(nextExpectedTimes(amsterdam('0 3 * * *'), new Date('2026-10-23T12:00:00Z'), 3))).toEqual([
      '2026-10-24T01:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
      '2026-10-26T02:00:00.000Z',
    ])
  })

  it('expects a time the spring change skips once, right after the gap', () => {
    // 02:30 does not exist on 29 March: the run is expected at 03:00 CEST (01:00 UTC), once.
    expect(iso(nextExpectedTimes(amsterdam('30 2 * * *'), new Date('2026-03-28T12:00:00Z'), 2))).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ])
  })

  it('expects a time the autumn change repeats once, not twice', () => {
    // 02:30 happens twice on 25 October (00:30 and 01:30 UTC): one run is expected.
    expect(iso(nextExpectedTimes(amsterdam('30 2 * * *'), new Date('2026-10-24T12:00:00Z'), 2))).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ])
  })

  it('follows the injected clock, not the machine time', () => {
    const now = new Date('2030-06-01T10:15:00Z')
    expect(nextExpected({ cron: '*/30 * * * *', timezone: 'UTC' }, now).toISOString()).toBe('2030-06-01T10:30:00.000Z')
    expect(periodSeconds({ cron: '*/30 * * * *', timezone: 'UTC' }, now)).toBe(1800)
  })

  it('names what is wrong with an expression or a time zone', () => {
    expect(cronProblem('0 3 * * *', 'Europe/Amsterdam')).toBeUndefined()
    expect(cronProblem('61 * * * *', 'UTC')).toBeDefined()
    expect(cronProblem('0 3 * * *', 'Mars/Olympus')).toBe('unknown time zone Mars/Olympus')
  })
})
