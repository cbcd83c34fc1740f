import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, alertColor, classifyHttp, defineHttpProvider, headline, httpUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

// Discord markdown takes a backslash before any punctuation as "show it as typed", so alert text
// with `*`, `_` or `[x](y)` cannot restyle the message or hide a link behind other words.
const escapeMarkdown = (value: string) => value.replace(/[\\*_~`|[\]()<>#@]/g, '\\$&')

const MAX_ITEMS = 20

function description(alert: Alert): string {
  const links = [
    `[Open in Guard](${alert.link})`,
    ...(alert.acknowledgeUrl ? [`[Acknowledge](${alert.acknowledgeUrl})`] : []),
  ].join(' · ')
  const items = alert.items ?? []
  const lines = items
    .slice(0, MAX_ITEMS)
    .map((item) => `• **${escapeMarkdown(clip(item.title, 100))}**: ${escapeMarkdown(clip(item.text, 150))}`)
  if (items.length > MAX_ITEMS) lines.push(`…and ${items.length - MAX_ITEMS} more`)
  const list = lines.length > 0 ? `\n\n${lines.join('\n')}` : ''
  // Embeds allow 4096 characters of description and 6000 for the whole embed; the text gives way.
  const room = 3500 - links.length - list.length
  return `${escapeMarkdown(clip(alert.text, Math.max(room, 200)))}${list}\n\n${links}`
}

/** An execute-webhook body: one embed coloured by severity, mentions switched off. */
export function discordMessage(alert: Alert, username: string) {
  const fields = [
    { name: 'Severity', value: alert.severity, inline: true },
    ...(alert.incident
      ? [
          { name: 'Cause', value: clip(alert.incident.cause, 1024), inline: true },
          {
            name: 'Detected',
            // Discord shows <t:seconds:f> in each reader's own time zone.
            value: `<t:${Math.floor(Date.parse(alert.incident.detectedAt) / 1000)}:f>`,
            inline: true,
          },
        ]
      : []),
  ]
  return {
    username,
    // An alert quoting "@everyone" must not ping the whole server.
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: clip(headline(alert), 256),
        description: description(alert),
        url: alert.link,
        color: Number.parseInt(alertColor(alert).slice(1), 16),
        fields,
        timestamp: alert.occurredAt,
        footer: { text: clip(`Guard · ${alert.eventType}`, 200) },
      },
    ],
  }
}

const rateLimited = z.object({ retry_after: z.number().nonnegative() })

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

export const discord = defineHttpProvider({
  id: 'discord',
  label: 'Discord',
  description: 'A Discord channel, through a channel webhook (an embed coloured by severity, with Guard links).',
  config: z.strictObject({
    webhookUrl: httpUrl.describe(
      'The channel webhook URL (https://discord.com/api/webhooks/<id>/<token>); the token in it is a credential',
    ),
    username: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .refine((name) => !/discord|clyde/i.test(name), 'Discord refuses names containing "discord" or "clyde"')
      .default('Guard')
      .describe('The name the messages are posted under'),
    threadId: z
      .string()
      .regex(/^\d{17,20}$/, 'must be a Discord thread id (digits)')
      .optional()
      .describe("A thread of the webhook's channel (or a forum post) to post into instead of the channel"),
  }),
  secretFields: ['webhookUrl'],
  urlFields: ['webhookUrl'],
  request(alert, config) {
    const url = new URL(config.webhookUrl)
    // wait=true makes Discord answer only once the message is stored, so a refused one is an error here.
    url.searchParams.set('wait', 'true')
    if (config.threadId) url.searchParams.set('thread_id', config.threadId)
    return { method: 'POST', url: url.toString(), json: discordMessage(alert, config.username) }
  },
  classify(response) {
    const result = classifyHttp(response)
    if (result.ok || response.status !== 429) return result
    // The body's retry_after is in seconds with a fraction; the Retry-After header is rounded up.
    const body = rateLimited.safeParse(parseJson(response.body))
    return body.success ? { ...result, retryAfterMs: Math.ceil(body.data.retry_after * 1000) } : result
  },
})
