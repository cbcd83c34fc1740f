import { z } from 'zod'

export const burnAlert = z.strictObject({
  budgetPercent: z
    .number()
    .gt(0)
    .max(100)
    .describe('Share of the whole error budget that, spent in the long window, fires'),
  longWindowMinutes: z.number().int().min(5).max(4320),
  shortWindowMinutes: z.number().int().min(1).max(4320),
  severity: z.enum(['low', 'medium', 'high', 'critical']).default('high'),
})

/** Google's SRE workbook pairs: 2 % of the budget in 1 h (5 min short window), 5 % in 6 h (30 min). */
export const DEFAULT_BURN_ALERTS = [
  { budgetPercent: 2, longWindowMinutes: 60, shortWindowMinutes: 5, severity: 'critical' as const },
  { budgetPercent: 5, longWindowMinutes: 360, shortWindowMinutes: 30, severity: 'high' as const },
]

const subject = z.strictObject({
  kind: z.enum(['monitor', 'group']),
  id: z.string().min(1).max(64),
})
const window = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('rolling'), days: z.number().int().min(1).max(31) }),
  z.strictObject({ type: z.literal('calendar-month') }),
])
const burnAlerts = z
  .array(burnAlert)
  .max(5)
  .refine((alerts) => alerts.every((alert) => alert.shortWindowMinutes < alert.longWindowMinutes), {
    message: 'burnAlerts: each shortWindowMinutes must be below its longWindowMinutes',
  })

const fields = {
  name: z.string().trim().min(1, 'name must not be empty').max(200),
  subject,
  objective: z
    .number()
    .gt(0, 'objective must be a percent above 0')
    .lt(100, 'objective must be below 100 (100 % leaves no budget)')
    .describe('Percent of good minutes, e.g. 99.9'),
  window,
  burnAlerts,
}

export const createSloInput = z.strictObject({
  ...fields,
  window: window.default({ type: 'rolling', days: 30 }),
  burnAlerts: burnAlerts.default(DEFAULT_BURN_ALERTS),
})
export type CreateSloInput = z.input<typeof createSloInput>

export const updateSloInput = z
  .strictObject({
    name: fields.name.optional(),
    objective: fields.objective.optional(),
    window: window.optional(),
    burnAlerts: burnAlerts.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'name at least one field to change')
export type UpdateSloInput = z.input<typeof updateSloInput>

export const sloView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  subject: z.object({ kind: z.enum(['monitor', 'group']), id: z.string(), name: z.string() }),
  objective: z.number(),
  window: window,
  burnAlerts: z.array(burnAlert),
  burning: z
    .object({ severity: burnAlert.shape.severity, since: z.string(), burnRate: z.number() })
    .nullable()
    .describe('The burn alert firing now, if any'),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type SloView = z.infer<typeof sloView>

const nullablePercent = z.number().nullable()
export const sloStatus = z.object({
  from: z.string(),
  to: z.string(),
  goodMinutes: z.number().int(),
  badMinutes: z.number().int(),
  sli: nullablePercent.describe('Percent of elapsed eligible minutes that were good; null before the first'),
  budgetMinutes: z.number(),
  remainingMinutes: z.number().describe('Negative once the budget is spent'),
  remainingPercent: z.number(),
  burnRates: z.object({ '1h': nullablePercent, '6h': nullablePercent, '24h': nullablePercent, '3d': nullablePercent }),
  burnDown: z.array(
    z.object({
      date: z.string(),
      badMinutes: z.number().int(),
      remainingMinutes: z.number(),
      remainingPercent: z.number(),
    }),
  ),
})
export type SloStatus = z.infer<typeof sloStatus>
export const sloDetail = sloView.extend({ status: sloStatus })
