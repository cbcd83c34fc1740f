import { z } from 'zod'

const limit = z.int().min(0)

/**
 * The limits a catalog plan carries (`plans[].limits` of identity's catalog). A limit left out
 * is not limited, so an operator's own catalog may limit only what it cares about.
 */
export const planLimits = z.object({
  monitors: limit.optional().describe('domains and services together'),
  minIntervalSeconds: limit.optional().describe('the shortest checkInterval a monitor may have'),
  minBrowserIntervalSeconds: limit
    .optional()
    .describe('the shortest checkInterval a browser check (synthetic `type: browser`) may have'),
  locations: limit.optional().describe('locations one monitor may be checked from'),
  statusPages: limit.optional(),
  retentionDays: limit.optional(),
})

export type PlanLimits = z.infer<typeof planLimits>

export const PLAN_LIMIT_NAMES = [
  'monitors',
  'minIntervalSeconds',
  'minBrowserIntervalSeconds',
  'locations',
  'statusPages',
  'retentionDays',
] as const

export type PlanLimitName = (typeof PLAN_LIMIT_NAMES)[number]

/** An organization's plan as identity reports it to the collector; `plan: null` means no limits. */
export const organizationPlan = z.object({
  organizationId: z.string(),
  plan: z.object({ id: z.string(), name: z.string(), limits: planLimits }).nullable(),
})

export type OrganizationPlan = z.infer<typeof organizationPlan>
