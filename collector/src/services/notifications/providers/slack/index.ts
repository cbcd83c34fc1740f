import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, defineHttpProvider, headline, httpUrl } from '../provider.ts'

// Slack mrkdwn treats these three as control characters; everything else is shown as typed.
const escapeSlack = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

const MARKER: Record<Alert['severity'], string> = {
  critical: ':red_circle:',
  high: ':large_orange_circle:',
  medium: ':large_yellow_circle:',
  low: ':white_circle:',
}

const marker = (alert: Alert) =>
  alert.kind === 'resolved'
    ? ':large_green_circle:'
    : alert.kind === 'acknowledged'
      ? ':eyes:'
      : alert.kind === 'test'
        ? ':bell:'
        : MARKER[alert.severity]

/** A Slack incoming-webhook message in Block Kit: header, text, context, and buttons back to Guard. */
export function slackMessage(alert: Alert) {
  const title = headline(alert)
  const lines = alert.items?.map((item) => `• ${escapeSlack(item.title)}: ${escapeSlack(item.text)}`) ?? []
  const buttons = [
    {
      type: 'button',
      text: { type: 'plain_text', text: 'Open in Guard', emoji: false },
      url: alert.link,
      action_id: 'open-in-guard',
    },
    ...(alert.acknowledgeUrl
      ? [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Acknowledge', emoji: false },
            url: alert.acknowledgeUrl,
            action_id: 'acknowledge',
            style: 'primary',
          },
        ]
      : []),
  ]
  return {
    text: clip(`${title}: ${alert.text}`, 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(title, 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: clip(`${marker(alert)} ${escapeSlack(alert.text)}`, 3000) } },
      ...(lines.length > 0 ? [{ type: 'section', text: { type: 'mrkdwn', text: clip(lines.join('\n'), 3000) } }] : []),
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: clip(`${escapeSlack(alert.eventType)} · ${escapeSlack(alert.occurredAt)}`, 3000) },
        ],
      },
      { type: 'actions', elements: buttons },
    ],
  }
}

export const slack = defineHttpProvider({
  id: 'slack',
  label: 'Slack',
  description: 'A Slack channel, through an incoming webhook (Block Kit message with Open and Acknowledge buttons).',
  config: z.strictObject({
    webhookUrl: httpUrl.describe('The incoming-webhook URL (https://hooks.slack.com/services/…); it is a credential'),
  }),
  secretFields: ['webhookUrl'],
  urlFields: ['webhookUrl'],
  request: (alert, config) => ({ method: 'POST', url: config.webhookUrl, json: slackMessage(alert) }),
})
