import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, defineProvider, headline } from '../provider.ts'

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

/** Subject, text and HTML of an alert's e-mail; the acknowledge link when there is one. */
export function emailContent(alert: Alert) {
  const title = headline(alert)
  const items = alert.items ?? []
  const text = [
    title,
    '',
    alert.text,
    ...items.map((item) => `- ${item.occurredAt} ${item.title}: ${item.text}`),
    '',
    `${alert.eventType} at ${alert.occurredAt}`,
    `Open in Guard: ${alert.link}`,
    ...(alert.acknowledgeUrl ? [`Acknowledge: ${alert.acknowledgeUrl}`] : []),
    '',
  ].join('\n')
  const list =
    items.length > 0
      ? `<ul>${items.map((item) => `<li>${escapeHtml(item.occurredAt)} <b>${escapeHtml(item.title)}</b>: ${escapeHtml(item.text)}</li>`).join('')}</ul>`
      : ''
  const acknowledge = alert.acknowledgeUrl ? ` · <a href="${escapeHtml(alert.acknowledgeUrl)}">Acknowledge</a>` : ''
  const html = `<!doctype html><html><body style="font-family:sans-serif"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(alert.text)}</p>${list}<p style="color:#666">${escapeHtml(alert.eventType)} at ${escapeHtml(alert.occurredAt)}</p><p><a href="${escapeHtml(alert.link)}">Open in Guard</a>${acknowledge}</p></body></html>`
  return { subject: clip(`[Guard] ${title}`, 250), text, html }
}

export const email = defineProvider({
  id: 'email',
  label: 'E-mail',
  description: "E-mail to one or more addresses, through the operator's SMTP server (GUARD_SMTP_URL).",
  config: z.strictObject({
    addresses: z.array(z.email().max(320)).min(1).max(20).describe('Who receives the e-mails'),
  }),
  secretFields: [],
  urlFields: [],
  send: (alert, config, io) => io.mail({ to: config.addresses, ...emailContent(alert) }),
})
