import { createHash, timingSafeEqual } from 'node:crypto'
import { truncateText } from '@guard/shared'
import { z } from 'zod'
import {
  type Alert,
  type CallbackAction,
  classifyHttp,
  defineHttpProvider,
  type HttpRequest,
  type HttpResponse,
  headline,
  httpUrl,
  joinUrl,
} from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

const REGION_URL = { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' } as const

const PRIORITY: Record<Alert['severity'], 'P1' | 'P2' | 'P3' | 'P4'> = {
  critical: 'P1',
  high: 'P2',
  medium: 'P3',
  low: 'P4',
}

/** The header Opsgenie's outgoing webhook is set to send (its "Custom headers"), holding `callbackToken`. */
export const OPSGENIE_TOKEN_HEADER = 'x-guard-token'

// Opsgenie keeps an alias up to 512 characters; the same alias closes the alert it opened.
const aliasOf = (alert: Alert) => clip(alert.incident?.dedupKey ?? `guard-${alert.kind}-${alert.eventId}`, 512)

const description = (alert: Alert) =>
  [
    alert.text,
    ...(alert.items?.map((item) => `- ${item.occurredAt} ${item.title}: ${item.text}`) ?? []),
    '',
    `Open in Guard: ${alert.link}`,
    ...(alert.acknowledgeUrl ? [`Acknowledge: ${alert.acknowledgeUrl}`] : []),
  ].join('\n')

/**
 * Opsgenie's create-alert body, within its documented limits (message 130, description 15000,
 * tags 20 of 50 characters, detail values strings).
 */
export function opsgenieAlert(alert: Alert) {
  const details: Record<string, string> = {
    kind: alert.kind,
    event: alert.eventType,
    link: alert.link,
    ...(alert.incident ? { incident: alert.incident.id, cause: alert.incident.cause } : {}),
    ...(alert.monitor ? { monitor: alert.monitor.id, monitorKind: alert.monitor.kind } : {}),
    ...(alert.acknowledgeUrl ? { acknowledgeUrl: alert.acknowledgeUrl } : {}),
  }
  const tags = ['guard', alert.severity, ...(alert.monitor ? [alert.monitor.kind] : [])]
  return {
    message: clip(headline(alert), 130),
    alias: aliasOf(alert),
    description: clip(description(alert), 15_000),
    priority: alert.kind === 'test' || alert.kind === 'digest' ? 'P5' : PRIORITY[alert.severity],
    details,
    source: 'Guard',
    tags: tags.map((tag) => clip(tag, 50)).slice(0, 20),
  }
}

/**
 * 429 without Retry-After: Opsgenie says how long the throttle lasts in X-RateLimit-Period-In-Sec.
 * https://docs.opsgenie.com/docs/api-rate-limiting
 */
function classifyOpsgenie(response: HttpResponse) {
  const result = classifyHttp(response)
  const period = Number(response.headers['x-ratelimit-period-in-sec'])
  if (!result.ok && response.status === 429 && result.retryAfterMs === undefined && Number.isFinite(period)) {
    return { ...result, retryAfterMs: Math.max(0, period) * 1000 }
  }
  return result
}

const tokenMatches = (expected: string, given: string | undefined) => {
  if (!given) return false
  // Digests of both have one length, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()
  return timingSafeEqual(digest(expected), digest(given))
}

const webhookCall = z.object({
  action: z.string(),
  alert: z.object({ alias: z.string().min(1), username: z.string().optional() }),
  source: z.object({ name: z.string().optional() }).optional(),
})

const CALLBACK_ACTIONS = new Map<string, CallbackAction['action']>([
  ['Acknowledge', 'acknowledge'],
  ['Close', 'resolve'],
])

export const opsgenie = defineHttpProvider({
  id: 'opsgenie',
  label: 'Opsgenie',
  description:
    'Opsgenie Alert API: creates an alert per incident (its alias is the incident), acknowledges and closes it with Guard; optionally reads an Opsgenie outgoing webhook back to acknowledge or resolve in Guard.',
  config: z.strictObject({
    apiKey: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('The API key of an Opsgenie "API" integration (it may create, acknowledge and close alerts)'),
    region: z
      .enum(['us', 'eu'])
      .default('us')
      .describe('Where the Opsgenie account lives: us (api.opsgenie.com) or eu (api.eu.opsgenie.com)'),
    apiUrl: httpUrl.optional().describe('Overrides the API base URL chosen by region'),
    callbackToken: z
      .string()
      .min(16)
      .max(200)
      .optional()
      .describe(
        `A random token Opsgenie's outgoing webhook sends in the ${OPSGENIE_TOKEN_HEADER} custom header to this channel's callback URL (Acknowledge and Close actions); without it Opsgenie's calls are ignored`,
      ),
  }),
  secretFields: ['apiKey', 'callbackToken'],
  urlFields: ['apiUrl'],
  request(alert, config): HttpRequest {
    const base = config.apiUrl ?? REGION_URL[config.region]
    const headers = { authorization: `GenieKey ${config.apiKey}` }
    if (alert.kind === 'resolved' || alert.kind === 'acknowledged') {
      const verb = alert.kind === 'resolved' ? 'close' : 'acknowledge'
      return {
        method: 'POST',
        url: joinUrl(base, `/v2/alerts/${encodeURIComponent(aliasOf(alert))}/${verb}?identifierType=alias`),
        headers,
        json: { user: 'Guard', source: 'Guard', note: clip(alert.text, 25_000) },
      }
    }
    return { method: 'POST', url: joinUrl(base, '/v2/alerts'), headers, json: opsgenieAlert(alert) }
  },
  classify: classifyOpsgenie,
  callback(request, config) {
    if (!config.callbackToken || !tokenMatches(config.callbackToken, request.headers[OPSGENIE_TOKEN_HEADER])) {
      return undefined
    }
    let body: unknown
    try {
      body = JSON.parse(request.rawBody)
    } catch {
      return undefined
    }
    const parsed = webhookCall.safeParse(body)
    if (!parsed.success) return undefined
    const action = CALLBACK_ACTIONS.get(parsed.data.action)
    // Guard's own acknowledge or close comes back through the webhook too: nothing to do.
    if (!action || parsed.data.source?.name === 'Guard') return undefined
    const { alias, username } = parsed.data.alert
    return { action, dedupKey: alias, by: username ? `Opsgenie: ${username}` : 'Opsgenie' }
  },
})
