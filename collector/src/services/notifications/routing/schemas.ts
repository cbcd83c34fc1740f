import { z } from 'zod'
import { MONITOR_KINDS } from '../../monitors/kinds/index.ts'
import { tagSelector } from '../../tags/schemas.ts'
import { alertKind, alertSeverity } from '../providers/provider.ts'

const ids = z.array(z.string().min(1).max(64)).max(500)

/**
 * Which incidents a route takes. Every field named must match; within a field, any value does.
 * `tags` are the monitor's (or device's) tags, `key` or `key:value`, and every tag named must be
 * on it. An empty selector takes everything.
 */
export const routeSelector = z.strictObject({
  monitorIds: ids.optional(),
  tags: z.array(tagSelector).max(50).optional(),
  monitorKinds: z.array(z.enum(MONITOR_KINDS)).max(MONITOR_KINDS.length).optional(),
  severities: z.array(alertSeverity).max(4).optional(),
  causes: z
    .array(z.enum(['down', 'certificate', 'registration', 'device-offline', 'device-health', 'manual', 'slo']))
    .max(6)
    .optional(),
  events: z
    .array(alertKind.exclude(['digest', 'test']))
    .max(7)
    .optional()
    .describe('Which moments: opened, reopened, updated, acknowledged, resolved, reminder, escalated'),
})
export type RouteSelector = z.infer<typeof routeSelector>

export const routeInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  position: z.number().int().min(0).max(999_999).default(100).describe('Routes are tried in ascending position'),
  selector: routeSelector.default({}),
  channelIds: ids.default([]).describe('Notified at once'),
  escalationPolicyId: z.string().max(64).nullable().default(null),
  reminderMinutes: z
    .number()
    .min(0.05)
    .max(10_080)
    .nullable()
    .default(null)
    .describe('Remind the notified channels this often while the incident stays open'),
  continueMatching: z.boolean().default(false).describe('Also try the routes after this one'),
  enabled: z.boolean().default(true),
})
export type RouteInput = z.input<typeof routeInput>

export const routeView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  position: z.number().int(),
  isDefault: z.boolean(),
  selector: routeSelector,
  channelIds: z.array(z.string()),
  escalationPolicyId: z.string().nullable(),
  reminderMinutes: z.number().nullable(),
  continueMatching: z.boolean(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type RouteView = z.infer<typeof routeView>

export const escalationStep = z.strictObject({
  afterMinutes: z
    .number()
    .min(0)
    .max(10_080)
    .describe('Minutes after the incident opened, if nobody acknowledged (0.5 is 30 s)'),
  channelIds: ids.min(1),
})

export const policyInput = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    steps: z.array(escalationStep).min(1).max(10),
    repeat: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(0)
      .describe('Times the whole policy runs again after its last step'),
    repeatAfterMinutes: z
      .number()
      .min(0.05)
      .max(10_080)
      .default(30)
      .describe('Pause after the last step before repeating'),
  })
  .refine(
    (policy) =>
      policy.steps.every((step, index) => index === 0 || step.afterMinutes > policy.steps[index - 1]!.afterMinutes),
    { message: 'steps: afterMinutes must increase from one step to the next', path: ['steps'] },
  )
export type PolicyInput = z.input<typeof policyInput>

export const policyView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  steps: z.array(escalationStep),
  repeat: z.number().int(),
  repeatAfterMinutes: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PolicyView = z.infer<typeof policyView>
