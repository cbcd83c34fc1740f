import { describe, expect, it } from 'vitest'
import { currentOrNextOccurrence, windowCovers } from './schemas.ts'

const at = (iso: string) => Date.parse(iso)
const window = (recurrence: 'none' | 'daily' | 'weekly', until: string | null = null) => ({
  startsAt: at('2030-01-07T02:00:00Z'),
  endsAt: at('2030-01-07T04:00:00Z'),
  recurrence,
  until: until ? at(until) : null,
})

describe('maintenance window coverage', () => {
  it('covers a one-off window from its start up to, not including, its end', () => {
    expect(windowCovers(window('none'), at('2030-01-07T01:59:59Z'))).toBe(false)
    expect(windowCovers(window('none'), at('2030-01-07T02:00:00Z'))).toBe(true)
    expect(windowCovers(window('none'), at('2030-01-07T04:00:00Z'))).toBe(false)
    expect(windowCovers(window('none'), at('2030-01-08T03:00:00Z'))).toBe(false)
  })

  it('repeats a daily window at the same hours every day until `until`', () => {
    expect(windowCovers(window('daily'), at('2030-01-09T03:00:00Z'))).toBe(true)
    expect(windowCovers(window('daily'), at('2030-01-09T05:00:00Z'))).toBe(false)
    expect(windowCovers(window('daily', '2030-01-09T00:00:00Z'), at('2030-01-09T03:00:00Z'))).toBe(false)
  })

  it('repeats a weekly window on the same weekday only', () => {
    expect(windowCovers(window('weekly'), at('2030-01-14T02:30:00Z'))).toBe(true)
    expect(windowCovers(window('weekly'), at('2030-01-15T02:30:00Z'))).toBe(false)
  })
})

describe('the occurrence a status page shows', () => {
  const occurrence = (recurrence: 'none' | 'daily' | 'weekly', now: string, until: string | null = null) => {
    const found = currentOrNextOccurrence(window(recurrence, until), at(now))
    return (
      found && {
        ...found,
        startsAt: new Date(found.startsAt).toISOString(),
        endsAt: new Date(found.endsAt).toISOString(),
      }
    )
  }

  it('is the window itself before and during a one-off window, and nothing after it', () => {
    expect(occurrence('none', '2030-01-06T00:00:00Z')).toEqual({
      startsAt: '2030-01-07T02:00:00.000Z',
      endsAt: '2030-01-07T04:00:00.000Z',
      ongoing: false,
    })
    expect(occurrence('none', '2030-01-07T03:00:00Z')?.ongoing).toBe(true)
    expect(occurrence('none', '2030-01-07T04:00:00Z')).toBeNull()
  })

  it('is the ongoing or next repetition of a recurring window, until `until`', () => {
    expect(occurrence('daily', '2030-01-09T03:00:00Z')).toEqual({
      startsAt: '2030-01-09T02:00:00.000Z',
      endsAt: '2030-01-09T04:00:00.000Z',
      ongoing: true,
    })
    expect(occurrence('daily', '2030-01-09T05:00:00Z')).toMatchObject({
      startsAt: '2030-01-10T02:00:00.000Z',
      ongoing: false,
    })
    expect(occurrence('weekly', '2030-01-08T00:00:00Z')).toMatchObject({ startsAt: '2030-01-14T02:00:00.000Z' })
    expect(occurrence('daily', '2030-01-09T05:00:00Z', '2030-01-10T02:00:00Z')).toBeNull()
    expect(occurrence('daily', '2030-01-09T05:00:00Z', '2030-01-10T02:00:01Z')).toMatchObject({
      startsAt: '2030-01-10T02:00:00.000Z',
    })
  })
})
