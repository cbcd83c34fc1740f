import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, alertColor, defineHttpProvider, headline, httpUrl, joinUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** Clips plain text so that, escaped, it fits `budget` characters without cutting an entity. */
function escapedWithin(raw: string, budget: number): string {
  let text = raw
  for (let attempt = 0; attempt < 4 && escapeHtml(text).length > budget; attempt++) {
    text = clip(raw, Math.max(1, text.length - (escapeHtml(text).length - budget)))
  }
  return escapeHtml(text).length > budget ? escapeHtml(clip(raw, Math.floor(budget / 6))) : escapeHtml(text)
}

// Pushover's documented limits: message 1024, title 250, url 512, url_title 100 characters.
const MESSAGE_MAX = 1024

const SEVERITY_PRIORITY: Record<Alert['severity'], number> = { critical: 1, high: 1, medium: 0, low: -1 }

function priorityOf(alert: Alert, emergency: boolean): number {
  if (alert.kind === 'acknowledged' || alert.kind === 'digest') return -1
  if (alert.kind === 'resolved' || alert.kind === 'test') return 0
  return emergency && alert.severity === 'critical' ? 2 : SEVERITY_PRIORITY[alert.severity]
}

const config = z.strictObject({
  apiUrl: httpUrl.default('https://api.pushover.net').describe('Pushover API base URL'),
  token: z
    .string()
    .regex(/^[A-Za-z0-9]{30}$/, 'must be a 30-character Pushover application token')
    .describe('The API token of your Pushover application (pushover.net/apps)'),
  user: z
    .string()
    .regex(/^[A-Za-z0-9]{30}$/, 'must be a 30-character Pushover user or group key')
    .describe('The user or group key to notify'),
  device: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,25}(,[A-Za-z0-9_-]{1,25})*$/, 'device names, comma-separated')
    .optional()
    .describe('Only these devices of the user (comma-separated); all devices when empty'),
  sound: z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/i)
    .optional()
    .describe('A Pushover sound name (pushover, siren, none, …); the user’s default when empty'),
  emergency: z
    .boolean()
    .default(false)
    .describe('Send critical alerts at emergency priority (2): repeated until someone acknowledges them in Pushover'),
  retry: z.int().min(30).max(10_800).default(60).describe('Emergency priority: seconds between repeats (at least 30)'),
  expire: z
    .int()
    .min(30)
    .max(10_800)
    .default(3600)
    .describe('Emergency priority: seconds after which repeats stop (at most 10800)'),
})

/** The form Pushover's messages.json takes, HTML on: the text, a digest's items, the acknowledge link. */
export function pushoverForm(alert: Alert, settings: z.infer<typeof config>): Record<string, string> {
  const acknowledge = alert.acknowledgeUrl ? `\n<a href="${escapeHtml(alert.acknowledgeUrl)}">Acknowledge</a>` : ''
  const raw = [alert.text, ...(alert.items?.map((item) => `• ${item.title}: ${item.text}`) ?? [])].join('\n')
  const color = `<font color="${alertColor(alert)}">■</font> `
  const priority = priorityOf(alert, settings.emergency)
  return {
    token: settings.token,
    user: settings.user,
    title: clip(headline(alert), 250),
    message: `${color}${escapedWithin(raw, MESSAGE_MAX - color.length - acknowledge.length)}${acknowledge}`,
    html: '1',
    url: clip(alert.link, 512),
    url_title: 'Open in Guard',
    priority: String(priority),
    timestamp: String(Math.floor(Date.parse(alert.occurredAt) / 1000)),
    ...(priority === 2 ? { retry: String(settings.retry), expire: String(settings.expire) } : {}),
    ...(settings.device ? { device: settings.device } : {}),
    ...(settings.sound ? { sound: settings.sound } : {}),
  }
}

export const pushover = defineHttpProvider({
  id: 'pushover',
  label: 'Pushover',
  description:
    'A Pushover notification: priority by severity (critical optionally at emergency priority, repeated until acknowledged), a link to Guard and an Acknowledge link.',
  config,
  secretFields: ['token', 'user'],
  urlFields: ['apiUrl'],
  request: (alert, settings) => ({
    method: 'POST',
    url: joinUrl(settings.apiUrl, '/1/messages.json'),
    form: pushoverForm(alert, settings),
  }),
})
