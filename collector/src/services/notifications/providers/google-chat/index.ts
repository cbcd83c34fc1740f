import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, alertColor, defineHttpProvider, headline, httpUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

// Card text is a small HTML subset (<b>, <font color>, <a href>): alert text is shown as typed.
const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

const MAX_ITEMS = 20

const button = (text: string, url: string) => ({ text, onClick: { openLink: { url } } })

/** An incoming-webhook message: the headline as text (notifications show it) and one card. */
export function googleChatMessage(alert: Alert, threadKey: string | undefined) {
  const title = clip(headline(alert), 200)
  const items = alert.items ?? []
  const itemWidgets = items.slice(0, MAX_ITEMS).map((item) => ({
    decoratedText: { topLabel: clip(item.title, 100), text: escapeHtml(clip(item.text, 300)), wrapText: true },
  }))
  if (items.length > MAX_ITEMS) {
    itemWidgets.push({ decoratedText: { topLabel: '…', text: `and ${items.length - MAX_ITEMS} more`, wrapText: true } })
  }
  return {
    text: title,
    cardsV2: [
      {
        cardId: 'guard-alert',
        card: {
          header: { title, subtitle: `${alert.severity} · ${alert.eventType}` },
          sections: [
            {
              widgets: [
                {
                  textParagraph: {
                    text: `<font color="${alertColor(alert)}"><b>●</b></font> ${escapeHtml(clip(alert.text, 3000))}`,
                  },
                },
                ...(alert.incident
                  ? [{ decoratedText: { topLabel: 'Cause', text: escapeHtml(clip(alert.incident.cause, 200)) } }]
                  : []),
                { decoratedText: { topLabel: 'When', text: alert.occurredAt } },
              ],
            },
            ...(itemWidgets.length > 0 ? [{ header: 'Alerts', widgets: itemWidgets }] : []),
            {
              widgets: [
                {
                  buttonList: {
                    buttons: [
                      button('Open in Guard', alert.link),
                      ...(alert.acknowledgeUrl ? [button('Acknowledge', alert.acknowledgeUrl)] : []),
                    ],
                  },
                },
              ],
            },
          ],
        },
      },
    ],
    ...(threadKey ? { thread: { threadKey } } : {}),
  }
}

export const googleChat = defineHttpProvider({
  id: 'google-chat',
  label: 'Google Chat',
  description:
    "A Google Chat space, through an incoming webhook: a card per alert, an incident's alerts in one thread.",
  config: z.strictObject({
    webhookUrl: httpUrl.describe(
      "The space's webhook URL (https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…); it is a credential",
    ),
    threadPerIncident: z
      .boolean()
      .default(true)
      .describe("Posts each incident's alerts (opened, updates, resolved) as replies in one thread of the space"),
  }),
  secretFields: ['webhookUrl'],
  urlFields: ['webhookUrl'],
  request(alert, config) {
    const threadKey = config.threadPerIncident ? alert.incident?.dedupKey : undefined
    const url = new URL(config.webhookUrl)
    // Without this option Chat ignores the thread key and starts a new thread every time.
    if (threadKey) url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD')
    return { method: 'POST', url: url.toString(), json: googleChatMessage(alert, threadKey) }
  },
})
