import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, defineHttpProvider, headline, httpUrl, joinUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

// The message is Markdown: what Guard quotes (titles, error texts) must not turn into links or emphasis.
const escapeMarkdown = (value: string) => value.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`)

// Gotify's Android client: 0 stays silent, 1-3 no sound, 4-7 sound, 8-10 sound and a heads-up pop-over.
const SEVERITY_PRIORITY: Record<Alert['severity'], number> = { critical: 10, high: 8, medium: 5, low: 2 }

const priorityOf = (alert: Alert) =>
  alert.kind === 'acknowledged'
    ? 2
    : alert.kind === 'resolved' || alert.kind === 'test' || alert.kind === 'digest'
      ? 5
      : SEVERITY_PRIORITY[alert.severity]

/** A Gotify message in Markdown: the text, a digest's items, links to Guard; tapping it opens Guard. */
export function gotifyMessage(alert: Alert) {
  const items = alert.items?.map((item) => `- **${escapeMarkdown(item.title)}**: ${escapeMarkdown(item.text)}`) ?? []
  const links = [
    `[Open in Guard](<${alert.link}>)`,
    ...(alert.acknowledgeUrl ? [`[Acknowledge](<${alert.acknowledgeUrl}>)`] : []),
  ]
  // Gotify documents no size limit; a phone shows a few thousand characters at most.
  const body = clip([escapeMarkdown(alert.text), ...items].join('\n'), 4000)
  return {
    title: clip(headline(alert), 250),
    message: `${body}\n\n${links.join(' · ')}`,
    priority: priorityOf(alert),
    extras: {
      'client::display': { contentType: 'text/markdown' },
      'client::notification': { click: { url: alert.link } },
    },
  }
}

export const gotify = defineHttpProvider({
  id: 'gotify',
  label: 'Gotify',
  description:
    'A push notification through a self-hosted Gotify server: Markdown message, priority by severity, a tap opens Guard.',
  config: z.strictObject({
    serverUrl: httpUrl.describe('Your Gotify server (https://gotify.example.com); messages go to <serverUrl>/message'),
    appToken: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('The token of a Gotify application (Apps → Create Application), sent as X-Gotify-Key'),
  }),
  secretFields: ['appToken'],
  urlFields: ['serverUrl'],
  request: (alert, config) => ({
    method: 'POST',
    url: joinUrl(config.serverUrl, '/message'),
    headers: { 'x-gotify-key': config.appToken },
    json: gotifyMessage(alert),
  }),
})
