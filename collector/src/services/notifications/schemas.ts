import { z } from 'zod'

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).max(2000)

export const settingsView = z.object({
  organizationId: z.string(),
  emailNotifications: z
    .boolean()
    .describe('Master switch of the e-mail channel; off until an address is given where an SMTP server is configured'),
  emailAvailable: z.boolean().describe('Whether this Guard has an SMTP server (GUARD_SMTP_URL) to send e-mail with'),
  browserNotifications: z.boolean().describe('Push in-app notifications to GET /api/notifications/stream'),
  emailIncidents: z
    .boolean()
    .describe('E-mail incidents that are not monitor downtime (certificates, manual, devices)'),
  emailDowntime: z.boolean().describe('E-mail incidents opened because a monitor went down, and their resolution'),
  emailWeeklyReports: z.boolean(),
  slackEnabled: z.boolean(),
  slackWebhookUrl: z
    .string()
    .nullable()
    .describe('Slack incoming-webhook URL, masked (it is a credential; stored encrypted)'),
  webhookUrl: z.string().nullable().describe('Receives Standard Webhooks-signed JSON for every incident event'),
  webhookSecretSet: z.boolean(),
  webhookSecret: z
    .string()
    .optional()
    .describe('The signing secret (whsec_…), present only in the response that created or rotated it'),
  email: z.string().nullable().describe('Where e-mail goes; required for the e-mail channel'),
  updatedAt: z.string(),
})
export type SettingsView = z.infer<typeof settingsView>

export const updateSettingsInput = z
  .strictObject({
    emailNotifications: z.boolean().optional(),
    browserNotifications: z.boolean().optional(),
    emailIncidents: z.boolean().optional(),
    emailDowntime: z.boolean().optional(),
    emailWeeklyReports: z.boolean().optional(),
    slackEnabled: z.boolean().optional(),
    slackWebhookUrl: url.nullable().optional(),
    webhookUrl: url.nullable().optional(),
    email: z.email().max(320).nullable().optional(),
    rotateWebhookSecret: z.literal(true).optional().describe('Replace the signing secret; the new one is shown once'),
  })
  .refine(
    (input) => !(input.slackEnabled === true && input.slackWebhookUrl === null),
    'slackEnabled needs a slackWebhookUrl',
  )
export type UpdateSettingsInput = z.input<typeof updateSettingsInput>

export const notificationView = z.object({
  id: z.string(),
  message: z.string(),
  type: z.enum(['error', 'warning', 'success', 'info']),
  isRead: z.boolean(),
  createdAt: z.string(),
  eventType: z.string(),
  incidentId: z.string().nullable(),
})
export type NotificationView = z.infer<typeof notificationView>

/** A person's own channels (their settings); organization channels have providers of their own. */
export const channel = z.enum(['webhook', 'slack', 'email'])
export type Channel = z.infer<typeof channel>

export const deliveryStatus = z
  .enum(['pending', 'held', 'delivered', 'failed', 'superseded', 'digested'])
  .describe(
    'held: waiting for the end of quiet hours; superseded: replaced by a newer message about the same flapping incident; digested: sent in a quiet-hours digest',
  )

export const deliveryView = z.object({
  id: z.string(),
  channel,
  target: z.string().describe('E-mail address, or the receiver URL masked after its first path segment'),
  eventId: z.string(),
  eventType: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  log: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.string(),
      statusCode: z.number().int().nullable(),
      error: z.string().nullable(),
      durationMs: z.number().int(),
    }),
  ),
})

export const listDeliveriesQuery = z.object({
  channel: channel.optional(),
  status: deliveryStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})
