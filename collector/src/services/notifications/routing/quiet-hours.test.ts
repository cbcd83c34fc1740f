import { describe, expect, it } from 'vitest'
import { quietUntil } from './quiet-hours.ts'

describe('quiet hours', () => {
  const night = { timeZone: 'Europe/Berlin', from: '22:00', to: '07:00' }

  it('holds from the start until the end in the channel’s time zone, across midnight', () => {
    // 23:30 in Berlin (CET, UTC+1) is 22:30 UTC; the period ends at 07:00 Berlin, 06:00 UTC.
    expect(quietUntil(night, new Date('2026-01-14T22:30:00Z'))?.toISOString()).toBe('2026-01-15T06:00:00.000Z')
    expect(quietUntil(night, new Date('2026-01-15T05:59:00Z'))?.toISOString()).toBe('2026-01-15T06:00:00.000Z')
    expect(quietUntil(night, new Date('2026-01-15T06:00:00Z'))).toBeUndefined()
    expect(quietUntil(night, new Date('2026-01-15T12:00:00Z'))).toBeUndefined()
  })

  it('follows the wall clock over a daylight-saving change', () => {
    // Berlin moves to CEST on 2026-03-29 at 02:00: 07:00 that morning is 05:00 UTC, not 06:00.
    expect(quietUntil(night, new Date('2026-03-28T23:00:00Z'))?.toISOString()).toBe('2026-03-29T05:00:00.000Z')
  })

  it('keeps to the days named, a period across midnight belonging to the day it started', () => {
    const weekdays = { ...night, days: [1, 2, 3, 4, 5] }
    // Friday 23:00 UTC is quiet until Saturday 07:00; Saturday 23:00 is not quiet at all.
    expect(quietUntil({ ...weekdays, timeZone: 'UTC' }, new Date('2026-01-16T23:00:00Z'))?.toISOString()).toBe(
      '2026-01-17T07:00:00.000Z',
    )
    expect(quietUntil({ ...weekdays, timeZone: 'UTC' }, new Date('2026-01-17T23:00:00Z'))).toBeUndefined()
    // Sunday night's period started on a day not named; Monday 01:00 is then not quiet either.
    expect(quietUntil({ ...weekdays, timeZone: 'UTC' }, new Date('2026-01-19T01:00:00Z'))).toBeUndefined()
  })

  it('is never quiet without quiet hours or with a period of no length', () => {
    expect(quietUntil(null, new Date())).toBeUndefined()
    expect(
      quietUntil({ timeZone: 'UTC', from: '09:00', to: '09:00' }, new Date('2026-01-15T09:00:00Z')),
    ).toBeUndefined()
  })
})
