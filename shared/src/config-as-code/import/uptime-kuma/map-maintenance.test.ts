import { describe, expect, it } from 'vitest'
import { importContext } from './context.ts'
import { mapMaintenance, zonedInstant } from './map-maintenance.ts'
import { kumaMaintenance } from './source.ts'

const map = (fields: Record<string, unknown>) => {
  const context = importContext()
  const maintenance = kumaMaintenance.parse({ id: 1, title: 'Patch', active: 1, timezone: 'UTC', ...fields })
  return { windows: mapMaintenance([maintenance], () => ['site'], context), unmapped: context.unmapped }
}

describe('maintenance windows', () => {
  it('reads wall-clock times in the window’s time zone, across a DST change', () => {
    expect(zonedInstant('2026-01-15 09:00', 'Europe/Berlin')).toBe('2026-01-15T08:00:00.000Z')
    expect(zonedInstant('2026-07-15 09:00:00', 'Europe/Berlin')).toBe('2026-07-15T07:00:00.000Z')
    expect(zonedInstant('2026-03-29 03:30', 'America/New_York')).toBe('2026-03-29T07:30:00.000Z')
  })

  it('makes one weekly window per weekday chosen, from the first such day on the start date', () => {
    const { windows } = map({
      strategy: 'recurring-weekday',
      weekdays: '[1,3]',
      start_date: '2026-01-01 00:00:00',
      start_time: '23:00',
      end_time: '01:00',
    })
    expect(windows).toEqual([
      {
        id: 'patch-mon',
        title: 'Patch',
        startsAt: '2026-01-05T23:00:00.000Z',
        endsAt: '2026-01-06T01:00:00.000Z',
        recurrence: 'weekly',
        until: null,
        monitors: ['site'],
      },
      expect.objectContaining({ id: 'patch-wed', startsAt: '2026-01-07T23:00:00.000Z', recurrence: 'weekly' }),
    ])
  })

  it('makes every weekday and a one-day interval daily, a seven-day interval weekly', () => {
    const recurring = { start_date: '2026-01-01 00:00:00', start_time: '02:00', end_time: '03:00' }
    expect(
      map({ ...recurring, strategy: 'recurring-weekday', weekdays: '[0,1,2,3,4,5,6]' }).windows[0]?.recurrence,
    ).toBe('daily')
    expect(map({ ...recurring, strategy: 'recurring-interval', interval_day: 1 }).windows[0]?.recurrence).toBe('daily')
    expect(map({ ...recurring, strategy: 'recurring-interval', interval_day: 7 }).windows[0]?.recurrence).toBe('weekly')
    expect(map({ ...recurring, strategy: 'recurring-interval', interval_day: 3 }).unmapped[0]?.reason).toBe(
      'Guard windows repeat daily or weekly, not every 3 days',
    )
  })

  it('leaves cron, manual and paused windows behind, and reads an unknown time zone as UTC', () => {
    expect(map({ strategy: 'cron', cron: '0 3 * * *' }).unmapped[0]?.reason).toBe(
      'Guard windows repeat daily or weekly, not by cron',
    )
    expect(map({ strategy: 'manual' }).unmapped[0]?.reason).toBe(
      'it is started and stopped by hand; Guard windows have times',
    )
    expect(map({ strategy: 'single', active: 0 }).unmapped[0]?.reason).toBe('it is paused; Guard windows are always on')
    const server = map({
      strategy: 'single',
      timezone: 'SAME_AS_SERVER',
      start_date: '2026-05-01 10:00:00',
      end_date: '2026-05-01 11:00:00',
    })
    expect(server.windows[0]).toMatchObject({ startsAt: '2026-05-01T10:00:00.000Z', recurrence: 'none' })
    expect(server.unmapped[0]?.item).toBe('Patch: time zone')
  })
})
