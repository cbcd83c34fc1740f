import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, alertColor, defineHttpProvider, headline, httpUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

const MAX_ITEMS = 20

function attachmentText(alert: Alert): string {
  const items = alert.items ?? []
  const lines = items.slice(0, MAX_ITEMS).map((item) => `• *${clip(item.title, 100)}*: ${clip(item.text, 200)}`)
  if (items.length > MAX_ITEMS) lines.push(`…and ${items.length - MAX_ITEMS} more`)
  const links = [
    `[Open in Guard](${alert.link})`,
    ...(alert.acknowledgeUrl ? [`[Acknowledge](${alert.acknowledgeUrl})`] : []),
  ].join(' · ')
  return [clip(alert.text, 3000), ...(lines.length > 0 ? ['', ...lines] : []), '', links].join('\n')
}

/** An incoming-webhook body: the headline as text and one attachment coloured by severity. */
export function rocketchatMessage(
  alert: Alert,
  config: { alias?: string | undefined; emoji?: string | undefined; channel?: string | undefined },
) {
  const title = clip(headline(alert), 250)
  return {
    text: title,
    ...(config.alias ? { alias: config.alias } : {}),
    ...(config.emoji ? { emoji: config.emoji } : {}),
    ...(config.channel ? { channel: config.channel } : {}),
    attachments: [
      {
        title,
        title_link: alert.link,
        text: attachmentText(alert),
        color: alertColor(alert),
        fields: [
          { short: true, title: 'Severity', value: alert.severity },
          ...(alert.incident ? [{ short: true, title: 'Cause', value: clip(alert.incident.cause, 200) }] : []),
          { short: true, title: 'When', value: alert.occurredAt },
        ],
      },
    ],
  }
}

export const rocketchat = defineHttpProvider({
  id: 'rocketchat',
  label: 'Rocket.Chat',
  description: 'A Rocket.Chat channel, through an incoming webhook integration (an attachment coloured by severity).',
  config: z.strictObject({
    webhookUrl: httpUrl.describe(
      "The integration's webhook URL (https://<server>/hooks/<id>/<token>); it is a credential",
    ),
    alias: z.string().trim().min(1).max(100).optional().describe("The name shown instead of the integration user's"),
    emoji: z
      .string()
      .regex(/^:[a-z0-9_+-]{1,64}:$/, 'must be an emoji code such as :rotating_light:')
      .optional()
      .describe('An emoji shown as the avatar, e.g. :rotating_light:'),
    channel: z
      .string()
      .regex(/^[#@][^\s]{1,100}$/, 'must be #channel or @username')
      .optional()
      .describe("Another #channel or @username than the integration's"),
  }),
  secretFields: ['webhookUrl'],
  urlFields: ['webhookUrl'],
  request: (alert, config) => ({ method: 'POST', url: config.webhookUrl, json: rocketchatMessage(alert, config) }),
})
