import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, defineHttpProvider, headline, httpUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

type ContainerStyle = 'default' | 'emphasis' | 'good' | 'attention' | 'warning' | 'accent'

// Adaptive Cards take named styles, not colours: the header's band is the severity.
const SEVERITY_STYLE: Record<Alert['severity'], ContainerStyle> = {
  critical: 'attention',
  high: 'attention',
  medium: 'warning',
  low: 'emphasis',
}

const headerStyle = (alert: Alert): ContainerStyle =>
  alert.kind === 'resolved'
    ? 'good'
    : alert.kind === 'acknowledged'
      ? 'accent'
      : alert.kind === 'test' || alert.kind === 'digest'
        ? 'emphasis'
        : SEVERITY_STYLE[alert.severity]

const MAX_ITEMS = 20

/**
 * A Workflows ("When a Teams webhook request is received") message: one Adaptive Card, well under
 * the 28 KB a Teams message may carry.
 */
export function teamsMessage(alert: Alert) {
  const items = alert.items ?? []
  const facts = [
    { title: 'Severity', value: alert.severity },
    ...(alert.incident ? [{ title: 'Cause', value: clip(alert.incident.cause, 200) }] : []),
    { title: 'Event', value: alert.eventType },
    { title: 'When', value: alert.occurredAt },
  ]
  const list = items.slice(0, MAX_ITEMS).map((item) => ({ title: clip(item.title, 100), value: clip(item.text, 300) }))
  if (items.length > MAX_ITEMS) list.push({ title: '…', value: `and ${items.length - MAX_ITEMS} more` })
  const actions = [
    { type: 'Action.OpenUrl', title: 'Open in Guard', url: alert.link },
    ...(alert.acknowledgeUrl
      ? [{ type: 'Action.OpenUrl', title: 'Acknowledge', url: alert.acknowledgeUrl, style: 'positive' }]
      : []),
  ]
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body: [
            {
              type: 'Container',
              style: headerStyle(alert),
              bleed: true,
              items: [
                { type: 'TextBlock', text: clip(headline(alert), 250), size: 'Large', weight: 'Bolder', wrap: true },
              ],
            },
            { type: 'TextBlock', text: clip(alert.text, 3000), wrap: true },
            ...(list.length > 0 ? [{ type: 'FactSet', facts: list }] : []),
            { type: 'FactSet', facts, separator: true },
          ],
          actions,
        },
      },
    ],
  }
}

export const teams = defineHttpProvider({
  id: 'teams',
  label: 'Microsoft Teams',
  description:
    'A Teams channel or chat, through a Workflows webhook ("Post to a channel when a webhook request is received"): an Adaptive Card with Open and Acknowledge buttons.',
  config: z.strictObject({
    webhookUrl: httpUrl.describe(
      "The workflow's HTTP POST URL (…logic.azure.com… or …powerplatform.com…); its sig parameter is a credential",
    ),
  }),
  secretFields: ['webhookUrl'],
  urlFields: ['webhookUrl'],
  request: (alert, config) => ({ method: 'POST', url: config.webhookUrl, json: teamsMessage(alert) }),
})
