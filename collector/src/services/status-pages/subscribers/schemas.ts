import { z } from 'zod'
import { httpUrl } from '../../notifications/providers/provider.ts'
import { localeString } from '../i18n/locales.ts'

const componentIds = z
  .array(z.string().min(1).max(64))
  .max(100)
  .default([])
  .meta({ description: 'Component ids to follow (as the page and its badges name them); empty: the whole page' })

const emailAddress = z
  .email('must be an e-mail address')
  .max(320)
  .transform((value) => value.toLowerCase())

/** A visitor's subscription: an e-mail address (double opt-in) or a webhook URL (signed, secret shown once). */
export const subscribeInput = z.union([
  z.strictObject({ email: emailAddress, componentIds }),
  z.strictObject({ webhookUrl: httpUrl, componentIds }),
])
export type SubscribeInput = z.input<typeof subscribeInput>

export const subscribeAnswer = z.object({
  message: z.string(),
  webhook: z
    .object({
      secret: z.string().describe('Standard Webhooks signing secret (whsec_…), shown only now'),
      unsubscribeUrl: z.string(),
    })
    .optional(),
})

export const tokenInput = z.object({ token: z.string().min(1).max(400) })

export const subscriberView = z.object({
  id: z.string(),
  kind: z.enum(['email', 'webhook']),
  target: z.string().describe('The e-mail address or webhook URL'),
  componentIds: z.array(z.string()),
  confirmed: z.boolean(),
  confirmedAt: z.string().nullable(),
  createdAt: z.string(),
})
export type SubscriberView = z.infer<typeof subscriberView>

export const importSubscribersInput = z.strictObject({
  emails: z.array(emailAddress).min(1).max(10_000),
  componentIds,
})

export const subscriberSettings = z.strictObject({
  maintenanceNoticeHours: z.number().int().min(0).max(720).meta({
    description: 'Hours before a maintenance window starts that subscribers are told of it (0: when it starts)',
  }),
})
export type SubscriberSettings = z.infer<typeof subscriberSettings>

/** What subscribers are told, frozen when queued; the same for every subscriber of a page. */
export const subscriberMessage = z.object({
  type: z.enum(['incident.opened', 'incident.updated', 'incident.resolved', 'maintenance.scheduled', 'confirm']),
  pageName: z.string(),
  slug: z.string(),
  title: z.string(),
  text: z.string(),
  status: z.string(),
  occurredAt: z.string(),
  components: z.array(z.string()),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  /** Only for `confirm`: the double opt-in token, sealed. */
  sealedToken: z.string().optional(),
  /** The page's language when queued; messages queued before pages had one are English. */
  locale: localeString.default('en'),
})
export type SubscriberMessage = z.infer<typeof subscriberMessage>

export const SUBSCRIBER_CHANNELS = { email: 'status-email', webhook: 'status-webhook' } as const
export const isSubscriberChannel = (channel: string) =>
  channel === SUBSCRIBER_CHANNELS.email || channel === SUBSCRIBER_CHANNELS.webhook
