import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { type Alert, alertColor, classifyHttp, defineHttpProvider, headline, httpUrl, joinUrl } from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const MAX_ITEMS = 20

// encodeURIComponent leaves `!` as is; the spec's examples (and some proxies) want the room id fully encoded.
const encodePathSegment = (value: string) => encodeURIComponent(value).replace(/!/g, '%21')

/**
 * An m.room.message in plain text and in Matrix's HTML subset, both well under the 64 KiB an
 * event may weigh.
 */
export function matrixMessage(alert: Alert) {
  const title = clip(headline(alert), 250)
  const text = clip(alert.text, 3000)
  const all = alert.items ?? []
  const items = all.slice(0, MAX_ITEMS).map((item) => ({ title: clip(item.title, 100), text: clip(item.text, 300) }))
  const more = all.length > MAX_ITEMS ? `…and ${all.length - MAX_ITEMS} more` : undefined
  const links = [
    { label: 'Open in Guard', url: alert.link },
    ...(alert.acknowledgeUrl ? [{ label: 'Acknowledge', url: alert.acknowledgeUrl }] : []),
  ]
  const body = [
    title,
    text,
    ...items.map((item) => `• ${item.title}: ${item.text}`),
    ...(more ? [more] : []),
    ...links.map((link) => `${link.label}: ${link.url}`),
  ].join('\n')
  const list =
    items.length > 0
      ? `<ul>${items.map((item) => `<li><b>${escapeHtml(item.title)}</b>: ${escapeHtml(item.text)}</li>`).join('')}${more ? `<li>${more}</li>` : ''}</ul>`
      : ''
  const anchors = links.map((link) => `<a href="${escapeHtml(link.url)}">${link.label}</a>`).join(' · ')
  return {
    msgtype: 'm.text',
    body,
    format: 'org.matrix.custom.html',
    formatted_body: `<h4><span data-mx-color="${alertColor(alert)}">●</span> ${escapeHtml(title)}</h4><p>${escapeHtml(text)}</p>${list}<p>${anchors}</p>`,
    // Declares that the message mentions nobody, so "@room" quoted in an alert pings no one.
    'm.mentions': {},
  }
}

const matrixError = z.object({
  errcode: z.string(),
  error: z.string().optional(),
  retry_after_ms: z.number().nonnegative().optional(),
})

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

export const matrix = defineHttpProvider({
  id: 'matrix',
  label: 'Matrix',
  description: "A Matrix room, as a bot account's message (Element and other clients; any homeserver).",
  config: z.strictObject({
    homeserverUrl: httpUrl
      .default('https://matrix-client.matrix.org')
      .describe("The homeserver's client API base URL (matrix.org's is https://matrix-client.matrix.org)"),
    accessToken: z
      .string()
      .regex(/^\S{8,2000}$/, 'must be an access token')
      .describe('The access token of the account that posts (a dedicated bot account that has joined the room)'),
    roomId: z
      .string()
      .regex(/^![^\s]{1,254}$/, 'must be a room id such as !abc123:example.org (not a #alias)')
      .describe('The room id (Room settings → Advanced), e.g. !abc123:example.org'),
  }),
  secretFields: ['accessToken'],
  urlFields: ['homeserverUrl'],
  request(alert, config, io) {
    // The transaction id is the delivery's: a retry after a lost answer is the same event, not a second one.
    const path = `_matrix/client/v3/rooms/${encodePathSegment(config.roomId)}/send/m.room.message/${encodeURIComponent(io.idempotencyKey)}`
    return {
      method: 'PUT',
      url: joinUrl(config.homeserverUrl, path),
      headers: { authorization: `Bearer ${config.accessToken}` },
      json: matrixMessage(alert),
    }
  },
  classify(response) {
    const result = classifyHttp(response)
    if (result.ok) return result
    const answer = matrixError.safeParse(parseJson(response.body))
    if (!answer.success) return result
    const { errcode, error, retry_after_ms } = answer.data
    // Newer homeservers also send Retry-After; retry_after_ms in the body is the long-standing signal.
    const retryAfterMs = result.retryAfterMs ?? (response.status === 429 ? retry_after_ms : undefined)
    return {
      ...result,
      error: `${response.status}: ${errcode}${error ? ` ${error}` : ''}`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    }
  },
})
