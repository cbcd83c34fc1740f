import { z } from 'zod'

export const recurrence = z.enum(['none', 'daily', 'weekly'])
const time = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' })

export const maintenanceWindowView = z.object({
  id: z.string(),
  organizationId: z.string(),
  monitorId: z.string().nullable().describe('The domain or service it covers; null: the whole organization'),
  title: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  recurrence: recurrence.describe('none, or repeats every day or week from startsAt, each time as long'),
  until: z.string().nullable(),
  active: z.boolean().describe('Whether the window covers the current time'),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type MaintenanceWindowView = z.infer<typeof maintenanceWindowView>

const fields = {
  title: z.string().trim().min(1, 'title must not be empty').max(200),
  monitorId: z.string().min(1).max(64).nullable(),
  startsAt: time,
  endsAt: time,
  recurrence,
  until: time.nullable(),
}
const ordered = (input: { startsAt?: string; endsAt?: string; recurrence?: string }) =>
  !input.startsAt || !input.endsAt || Date.parse(input.endsAt) > Date.parse(input.startsAt)

export const createMaintenanceWindowInput = z
  .strictObject({
    ...fields,
    monitorId: fields.monitorId.default(null),
    recurrence: recurrence.default('none'),
    until: fields.until.default(null),
  })
  .refine(ordered, { message: 'endsAt must be after startsAt', path: ['endsAt'] })
export type CreateMaintenanceWindowInput = z.input<typeof createMaintenanceWindowInput>

export const updateMaintenanceWindowInput = z
  .strictObject({
    title: fields.title.optional(),
    startsAt: fields.startsAt.optional(),
    endsAt: fields.endsAt.optional(),
    recurrence: fields.recurrence.optional(),
    until: fields.until.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'name at least one field to change')
export type UpdateMaintenanceWindowInput = z.input<typeof updateMaintenanceWindowInput>

export const PERIOD_MS = { none: 0, daily: 86_400_000, weekly: 7 * 86_400_000 } as const

/** Whether a window (one-off or recurring) covers the instant `at`. */
export function windowCovers(
  window: { startsAt: number; endsAt: number; recurrence: z.infer<typeof recurrence>; until: number | null },
  at: number,
): boolean {
  if (at < window.startsAt) return false
  const length = window.endsAt - window.startsAt
  if (window.recurrence === 'none') return at < window.endsAt
  if (window.until !== null && at >= window.until) return false
  return (at - window.startsAt) % PERIOD_MS[window.recurrence] < length
}

/**
 * The occurrence of a window that covers `at`, else its next one; null once it has no more
 * (a one-off window that ended, a recurring one past `until`).
 */
export function currentOrNextOccurrence(
  window: { startsAt: number; endsAt: number; recurrence: z.infer<typeof recurrence>; until: number | null },
  at: number,
): { startsAt: number; endsAt: number; ongoing: boolean } | null {
  const length = window.endsAt - window.startsAt
  const period = PERIOD_MS[window.recurrence]
  let start = window.startsAt
  if (period > 0 && at >= window.startsAt) {
    start = window.startsAt + Math.floor((at - window.startsAt) / period) * period
    if (at >= start + length) start += period
  }
  if (at >= start + length) return null
  if (period > 0 && window.until !== null && start >= window.until) return null
  return { startsAt: start, endsAt: start + length, ongoing: at >= start }
}
