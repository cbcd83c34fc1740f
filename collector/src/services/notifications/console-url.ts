import type { IncidentEventData } from '@guard/shared'
import { truncateText } from '@guard/shared'
import { consoleBaseUrl } from '../../env.ts'

/** A page of the web console, for links in messages. */
export const consoleUrl = (env: Parameters<typeof consoleBaseUrl>[0], path: string) => `${consoleBaseUrl(env)}${path}`

/** What every channel renders: a headline, a sentence, and a link back to the console. */
export interface Message {
  eventId: string
  eventType: string
  occurredAt: string
  organizationId: string
  title: string
  text: string
  link: string
  /** The event's own data, sent as is to webhooks. */
  data: unknown
  severity?: IncidentEventData['severity']
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
// Slack mrkdwn treats these three as control characters; everything else is shown as typed.
const escapeSlack = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

/** The Standard Webhooks body: event id, type, time, organization and data. */
export const webhookBody = (message: Message) => ({
  id: message.eventId,
  type: message.eventType,
  timestamp: message.occurredAt,
  organizationId: message.organizationId,
  data: message.data,
})

const SEVERITY_EMOJI = {
  critical: ':red_circle:',
  high: ':large_orange_circle:',
  medium: ':large_yellow_circle:',
  low: ':white_circle:',
}

/** A Slack incoming-webhook message in Block Kit: header, text, context, and a button back to the console. */
export function slackBody(message: Message) {
  const marker =
    message.eventType === 'incident.resolved'
      ? ':large_green_circle:'
      : message.severity
        ? SEVERITY_EMOJI[message.severity]
        : ':bell:'
  return {
    text: clip(`${message.title}: ${message.text}`, 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(message.title, 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: clip(`${marker} ${escapeSlack(message.text)}`, 3000) } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: clip(`${escapeSlack(message.eventType)} · ${escapeSlack(message.occurredAt)}`, 3000),
          },
        ],
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open in Guard', emoji: false },
            url: message.link,
            action_id: 'open-in-guard',
          },
        ],
      },
    ],
  }
}

export function emailBody(message: Message, to: string) {
  return {
    to,
    subject: clip(`[Guard] ${message.title}`, 250),
    text: `${message.title}\n\n${message.text}\n\n${message.eventType} at ${message.occurredAt}\n${message.link}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif"><h2>${escapeHtml(message.title)}</h2><p>${escapeHtml(message.text)}</p><p style="color:#666">${escapeHtml(message.eventType)} at ${escapeHtml(message.occurredAt)}</p><p><a href="${escapeHtml(message.link)}">Open in Guard</a></p></body></html>`,
  }
}
export type EmailBody = ReturnType<typeof emailBody>
