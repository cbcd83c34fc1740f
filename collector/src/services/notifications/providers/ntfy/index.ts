import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, defineHttpProvider, type HttpRequest, headline, httpUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

/**
 * ntfy turns a message over its size limit (4096 bytes by default) into an attachment, which
 * phones do not show in the notification: keep the text under it.
 * https://docs.ntfy.sh/publish/#limitations
 */
const MESSAGE_BYTES = 4096
export function clipBytes(value: string, max: number): string {
  if (Buffer.byteLength(value) <= max) return value
  // A cut through a character decodes to a replacement character at the end: drop it. '…' is 3 bytes.
  return `${Buffer.from(value)
    .subarray(0, max - 3)
    .toString('utf8')
    .replace(/\uFFFD$/, '')}…`
}

const SEVERITY_PRIORITY: Record<Alert['severity'], number> = { critical: 5, high: 4, medium: 3, low: 2 }
const SEVERITY_TAG: Record<Alert['severity'], string> = {
  critical: 'rotating_light',
  high: 'warning',
  medium: 'warning',
  low: 'information_source',
}

// ntfy priorities: 1 min, 2 low, 3 default, 4 high, 5 max (a long vibration and pop-over).
const priorityOf = (alert: Alert) =>
  alert.kind === 'resolved' || alert.kind === 'test' || alert.kind === 'digest'
    ? 3
    : alert.kind === 'acknowledged'
      ? 2
      : SEVERITY_PRIORITY[alert.severity]

// Tags that name an emoji are shown as one in front of the title.
const tagOf = (alert: Alert) =>
  alert.kind === 'resolved'
    ? 'white_check_mark'
    : alert.kind === 'acknowledged'
      ? 'eyes'
      : alert.kind === 'test'
        ? 'bell'
        : alert.kind === 'digest'
          ? 'memo'
          : SEVERITY_TAG[alert.severity]

/** An ntfy JSON publish: title, text (digest items as a list), priority, tags and buttons back to Guard. */
export function ntfyMessage(alert: Alert, topic: string) {
  const items = alert.items?.map((item) => `- ${item.title}: ${item.text}`) ?? []
  return {
    topic,
    title: clip(headline(alert), 250),
    message: clipBytes([alert.text, ...items].join('\n'), MESSAGE_BYTES),
    priority: priorityOf(alert),
    tags: [tagOf(alert), 'guard'],
    click: alert.link,
    actions: [
      { action: 'view', label: 'Open in Guard', url: alert.link },
      ...(alert.acknowledgeUrl ? [{ action: 'view', label: 'Acknowledge', url: alert.acknowledgeUrl }] : []),
    ],
  }
}

export const ntfy = defineHttpProvider({
  id: 'ntfy',
  label: 'ntfy',
  description:
    'A push notification through ntfy (ntfy.sh or a self-hosted server): priority by severity, a tap opens Guard, an Acknowledge button.',
  config: z
    .strictObject({
      serverUrl: httpUrl.default('https://ntfy.sh').describe('The ntfy server (https://ntfy.sh or your own)'),
      topic: z
        .string()
        .regex(/^[-_A-Za-z0-9]{1,64}$/, 'must be 1-64 letters, digits, - or _')
        .describe('The topic to publish to; on a public server it is as good as a password, so pick a long one'),
      accessToken: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('An access token (tk_…) for a protected topic, sent as Authorization: Bearer'),
      username: z.string().min(1).max(200).optional().describe('A user for a protected topic (Basic auth)'),
      password: z.string().min(1).max(200).optional().describe('That user’s password'),
    })
    .superRefine((config, ctx) => {
      if (config.accessToken && (config.username || config.password)) {
        ctx.addIssue({ code: 'custom', path: ['accessToken'], message: 'use either an access token or a user' })
      }
      if (Boolean(config.username) !== Boolean(config.password)) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'a user needs both username and password' })
      }
    }),
  secretFields: ['accessToken', 'password'],
  urlFields: ['serverUrl'],
  request(alert, config): HttpRequest {
    const authorization = config.accessToken
      ? `Bearer ${config.accessToken}`
      : config.username && config.password
        ? `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`
        : undefined
    return {
      method: 'POST',
      // JSON publishing goes to the server's root; the topic is in the body.
      url: `${config.serverUrl.replace(/\/+$/, '')}/`,
      ...(authorization ? { headers: { authorization } } : {}),
      json: ntfyMessage(alert, config.topic),
    }
  },
})
