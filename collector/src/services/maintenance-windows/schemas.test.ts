import { describe, expect, it } from 'vitest'
import { windowCovers } from './schemas.ts'

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
