import { z } from 'zod'
import { providerIds } from '../providers/index.ts'

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24 h)')

const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone })
      return true
    } catch {
      return false
    }
  }, 'must be an IANA time zone such as Europe/Berlin')

/**
 * Quiet hours in the channel's time zone: between `from` and `to` (across midnight when `to` is
 * earlier), on `days` (0 = Sunday) or every day. Critical alerts still go out at once; the others
 * wait and go out as one digest when the quiet period ends.
 */
export const quietHours = z.strictObject({
  timeZone,
  from: clock,
  to: clock,
  days: z.array(z.number().int().min(0).max(6)).min(1).max(7).optional(),
})
export type QuietHours = z.infer<typeof quietHours>

export const channelProvider = z.enum(providerIds)

export const createChannelInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  provider: channelProvider,
  config: z.record(z.string(), z.unknown()).describe("The provider's settings (GET /api/notification-providers)"),
  enabled: z.boolean().default(true),
  quietHours: quietHours.nullable().default(null),
  addToDefaultRoute: z
    .boolean()
    .default(true)
    .describe("Also add the channel to the organization's default route, so it hears every incident at once"),
})
export type CreateChannelInput = z.input<typeof createChannelInput>

export const updateChannelInput = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Replaces the settings; a secret field left out keeps its stored value'),
  enabled: z.boolean().optional(),
  quietHours: quietHours.nullable().optional(),
})
export type UpdateChannelInput = z.input<typeof updateChannelInput>

export const channelView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  provider: channelProvider,
  config: z.record(z.string(), z.unknown()).describe('The settings without their secret fields'),
  secretsSet: z.array(z.string()).describe('Secret fields that hold a value (never shown)'),
  generatedSecrets: z
    .record(z.string(), z.string())
    .optional()
    .describe('Secrets Guard generated (a webhook signing secret), in the response that created them only'),
  enabled: z.boolean(),
  quietHours: quietHours.nullable(),
  state: z.enum(['ok', 'failing']).describe('failing: the service refused the configuration'),
  stateReason: z.string().nullable(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryStatus: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ChannelView = z.infer<typeof channelView>

export const incidentTimelineView = z.object({
  deliveries: z.array(
    z.object({
      id: z.string(),
      channelId: z.string(),
      channelName: z.string(),
      provider: z.string(),
      purpose: z.string().describe('event, escalation step N, reminder, digest'),
      eventType: z.string(),
      status: z.string().describe('pending, held (quiet hours), delivered, failed, superseded, digested'),
      attempts: z.number().int(),
      createdAt: z.string(),
      dueAt: z.string().nullable(),
      deliveredAt: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
  ),
  escalations: z.array(
    z.object({
      routeId: z.string(),
      routeName: z.string().nullable(),
      round: z.number().int(),
      nextStep: z.number().int(),
      nextStepAt: z.string().nullable(),
      nextReminderAt: z.string().nullable(),
      remindersSent: z.number().int(),
      stoppedAt: z.string().nullable(),
      stoppedReason: z.string().nullable(),
    }),
  ),
})
