import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, classifyHttp, defineHttpProvider, headline, httpUrl, joinUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

// The four entities Telegram's HTML mode knows; anything else between < and > is refused.
const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

// Telegram has no message colours: a coloured circle in front says the severity at a glance.
const MARKER: Record<Alert['severity'], string> = { critical: '🔴', high: '🟠', medium: '🟡', low: '⚪' }

const marker = (alert: Alert) =>
  alert.kind === 'resolved'
    ? '🟢'
    : alert.kind === 'acknowledged'
      ? '👀'
      : alert.kind === 'test'
        ? '🔔'
        : alert.kind === 'digest'
          ? '📋'
          : MARKER[alert.severity]

const MAX_ITEMS = 10

/**
 * The message in HTML parse mode. Telegram counts its 4096-character limit after parsing the
 * markup, so each part is clipped as plain text before escaping: the sum stays under the limit.
 */
export function telegramText(alert: Alert): string {
  const items = alert.items ?? []
  const lines = items
    .slice(0, MAX_ITEMS)
    .map((item) => `• <b>${escapeHtml(clip(item.title, 60))}</b>: ${escapeHtml(clip(item.text, 120))}`)
  if (items.length > MAX_ITEMS) lines.push(`…and ${items.length - MAX_ITEMS} more`)
  return [
    `${marker(alert)} <b>${escapeHtml(clip(headline(alert), 250))}</b>`,
    escapeHtml(clip(alert.text, 1500)),
    ...(lines.length > 0 ? ['', ...lines] : []),
    '',
    `<i>${escapeHtml(clip(`${alert.eventType} · ${alert.occurredAt}`, 120))}</i>`,
  ].join('\n')
}

const telegramError = z.object({
  ok: z.literal(false),
  description: z.string().optional(),
  parameters: z
    .object({ retry_after: z.number().nonnegative().optional(), migrate_to_chat_id: z.number().optional() })
    .optional(),
})

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

const provider = defineHttpProvider({
  id: 'telegram',
  label: 'Telegram',
  description:
    'A Telegram chat, group, topic or channel, through a bot (HTML message with Open and Acknowledge buttons).',
  config: z.strictObject({
    apiUrl: httpUrl
      .default('https://api.telegram.org')
      .describe('The Bot API server; change it only for a self-hosted telegram-bot-api'),
    botToken: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{30,}$/, 'must be a bot token from @BotFather (123456:ABC…)')
      .describe('The bot token from @BotFather; the bot must be a member of the chat'),
    chatId: z
      .string()
      .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, 'must be a numeric chat id or a @channelusername')
      .describe('The chat: its numeric id (groups are negative, e.g. -1001234567890) or a public @channelusername'),
    messageThreadId: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('A topic of a forum supergroup to post in instead of its General topic'),
  }),
  secretFields: ['botToken'],
  urlFields: ['apiUrl'],
  request(alert, config) {
    const buttons = [
      { text: 'Open in Guard', url: alert.link },
      ...(alert.acknowledgeUrl ? [{ text: 'Acknowledge', url: alert.acknowledgeUrl }] : []),
    ]
    return {
      method: 'POST',
      url: joinUrl(config.apiUrl, `bot${config.botToken}/sendMessage`),
      json: {
        chat_id: /^-?\d+$/.test(config.chatId) ? Number(config.chatId) : config.chatId,
        ...(config.messageThreadId === undefined ? {} : { message_thread_id: config.messageThreadId }),
        text: telegramText(alert),
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        // Good news needs no buzz: a resolution or acknowledgement arrives silently.
        disable_notification: alert.kind === 'resolved' || alert.kind === 'acknowledged',
        reply_markup: { inline_keyboard: [buttons] },
      },
    }
  },
  classify(response) {
    const result = classifyHttp(response)
    if (result.ok) return result
    const answer = telegramError.safeParse(parseJson(response.body))
    if (!answer.success) return result
    const { description, parameters } = answer.data
    const error = parameters?.migrate_to_chat_id
      ? `${response.status}: the group became a supergroup, whose chat id is ${parameters.migrate_to_chat_id}`
      : `${response.status}: ${description ?? 'refused'}`
    const retryAfter = parameters?.retry_after
    return { ...result, error, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter * 1000 }) }
  },
})

/**
 * The token is part of every Bot API URL, so a failure that quotes the URL (a network error)
 * is reworded without it before anyone stores or shows it.
 */
export const telegram: typeof provider = {
  ...provider,
  async send(alert, config, io) {
    try {
      return await provider.send(alert, config, io)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      throw new Error(message.replaceAll(config.botToken, '<bot token>'))
    }
  },
}
