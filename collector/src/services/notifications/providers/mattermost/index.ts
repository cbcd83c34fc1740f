import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, alertColor, defineHttpProvider, headline, httpUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

const MAX_ITEMS = 20

function attachmentText(alert: Alert): string {
  const items = alert.items ?? []
  const lines = items.slice(0, MAX_ITEMS).map((item) => `- **${clip(item.title, 100)}**: ${clip(item.text, 200)}`)
  if (items.length > MAX_ITEMS) lines.push(`- …and ${items.length - MAX_ITEMS} more`)
  const links = [
    `[Open in Guard](${alert.link})`,
    ...(alert.acknowledgeUrl ? [`[Acknowledge](${alert.acknowledgeUrl})`] : []),
  ].join(' · ')
  return [clip(alert.text, 3000), ...(lines.length > 0 ? ['', ...lines] : []), '', links].join('\n')
}

/** An incoming-webhook body with one Slack-style attachment (colour bar, title link, fields). */
export function mattermostMessage(
  alert: Alert,
  config: { username?: string | undefined; iconUrl?: string | undefined; channel?: string | undefined },
) {
  const title = clip(headline(alert), 250)
  return {
    text: title,
    ...(config.username ? { username: config.username } : {}),
    ...(config.iconUrl ? { icon_url: config.iconUrl } : {}),
    ...(config.channel ? { channel: config.channel } : {}),
    attachments: [
      {
        fallback: clip(`${title}: ${alert.text}`, 500),
        color: alertColor(alert),
        title,
        title_link: alert.link,
        text: attachmentText(alert),
        fields: [
          { short: true, title: 'Severity', value: alert.severity },
          ...(alert.incident ? [{ short: true, title: 'Cause', value: clip(alert.incident.cause, 200) }] : []),
        ],
        footer: clip(`Guard · ${alert.eventType} · ${alert.occurredAt}`, 200),
      },
    ],
  }
}

export const mattermost = defineHttpProvider({
  id: 'mattermost',
  label: 'Mattermost',
  description:
    'A Mattermost channel, through an incoming webhook (an attachment coloured by severity, with Guard links).',
  config: z.strictObject({
    webhookUrl: httpUrl.describe('The incoming-webhook URL (https://<server>/hooks/<key>); it is a credential'),
    username: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('The name posts appear under (needs "Enable integrations to override usernames" on the server)'),
    iconUrl: httpUrl
      .optional()
      .describe('The picture posts appear with (needs "Enable integrations to override profile picture icons")'),
    channel: z
      .string()
      .regex(/^@?[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a channel name (town-square) or @username')
      .optional()
      .describe("Another channel's name (or @username) than the webhook's, when the webhook is not locked to it"),
  }),
  secretFields: ['webhookUrl'],
  urlFields: ['webhookUrl'],
  request: (alert, config) => ({ method: 'POST', url: config.webhookUrl, json: mattermostMessage(alert, config) }),
})
