import { createHmac, timingSafeEqual } from 'node:crypto'
import { truncateText } from '@guard/shared'
import { z } from 'zod'
import {
  type Alert,
  type CallbackAction,
  classifyHttp,
  defineHttpProvider,
  type HttpResponse,
  headline,
  httpUrl,
  joinUrl,
} from '../provider.ts'

const clip = (value: string, max: number) => (value.length > max ? `${truncateText(value, max - 1)}…` : value)

const SEVERITY: Record<Alert['severity'], 'critical' | 'error' | 'warning' | 'info'> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'info',
}

// PagerDuty's Events API takes up to 255 characters of dedup key.
const dedupKeyOf = (alert: Alert) => clip(alert.incident?.dedupKey ?? `guard-${alert.kind}-${alert.eventId}`, 255)

const actionOf = (alert: Alert) =>
  alert.kind === 'resolved' ? 'resolve' : alert.kind === 'acknowledged' ? 'acknowledge' : 'trigger'

/**
 * One Events API v2 event: acknowledge and resolve carry only the key of the alert they act on;
 * every other kind is a trigger with the incident's key, which PagerDuty folds into the open alert.
 */
export function pagerDutyEvent(alert: Alert, routingKey: string) {
  const action = actionOf(alert)
  const base = { routing_key: routingKey, event_action: action, dedup_key: dedupKeyOf(alert) }
  if (action !== 'trigger') return base
  return {
    ...base,
    payload: {
      summary: clip(headline(alert), 1024),
      source: alert.monitor ? `guard:${alert.monitor.kind}/${alert.monitor.id}` : 'guard',
      severity: alert.kind === 'test' || alert.kind === 'digest' ? 'info' : SEVERITY[alert.severity],
      timestamp: alert.occurredAt,
      ...(alert.monitor ? { component: alert.monitor.kind } : {}),
      custom_details: {
        text: alert.text,
        kind: alert.kind,
        event: alert.eventType,
        ...(alert.incident
          ? { incident: alert.incident.id, cause: alert.incident.cause, detected_at: alert.incident.detectedAt }
          : {}),
        ...(alert.items ? { items: alert.items.map((item) => `${item.occurredAt} ${item.title}: ${item.text}`) } : {}),
      },
    },
    links: [
      { href: alert.link, text: 'Open in Guard' },
      ...(alert.acknowledgeUrl ? [{ href: alert.acknowledgeUrl, text: 'Acknowledge in Guard' }] : []),
    ],
    client: 'Guard',
    client_url: URL.canParse(alert.link) ? new URL(alert.link).origin : alert.link,
  }
}

/**
 * PagerDuty's 429 carries no Retry-After; its rate-limit page suggests trying again 30 s later.
 * https://developer.pagerduty.com/docs/events-api-v2/rate-limits/
 */
function classifyPagerDuty(response: HttpResponse) {
  const result = classifyHttp(response)
  if (!result.ok && response.status === 429 && result.retryAfterMs === undefined) {
    return { ...result, retryAfterMs: 30_000 }
  }
  return result
}

const signatureMatches = (secret: string, rawBody: string, header: string | undefined) => {
  if (!header) return false
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex'))
  // The header lists one v1 signature per signing secret while PagerDuty rotates them.
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3))
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
}

const webhookEvent = z.object({
  event: z.object({
    event_type: z.string(),
    agent: z.object({ summary: z.string().optional() }).nullish(),
    data: z.object({ incident_key: z.string().min(1).nullish() }),
  }),
})

const CALLBACK_ACTIONS = new Map<string, CallbackAction['action']>([
  ['incident.acknowledged', 'acknowledge'],
  ['incident.resolved', 'resolve'],
])

export const pagerduty = defineHttpProvider({
  id: 'pagerduty',
  label: 'PagerDuty',
  description:
    'PagerDuty Events API v2: opens an alert per incident (keyed by the incident), acknowledges and resolves it with Guard; optionally reads PagerDuty V3 webhooks back to acknowledge or resolve in Guard.',
  config: z.strictObject({
    routingKey: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('The Integration Key of an Events API v2 integration on a PagerDuty service (or a ruleset)'),
    eventsUrl: httpUrl
      .default('https://events.pagerduty.com')
      .describe('Events API base URL; events go to <eventsUrl>/v2/enqueue'),
    webhookSigningSecret: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'The signing secret of a PagerDuty V3 webhook subscription (incident.acknowledged, incident.resolved) pointed at this channel’s callback URL; without it PagerDuty’s calls are ignored',
      ),
  }),
  secretFields: ['routingKey', 'webhookSigningSecret'],
  urlFields: ['eventsUrl'],
  request: (alert, config) => ({
    method: 'POST',
    url: joinUrl(config.eventsUrl, '/v2/enqueue'),
    json: pagerDutyEvent(alert, config.routingKey),
  }),
  classify: classifyPagerDuty,
  callback(request, config) {
    if (!config.webhookSigningSecret) return undefined
    if (!signatureMatches(config.webhookSigningSecret, request.rawBody, request.headers['x-pagerduty-signature'])) {
      return undefined
    }
    let body: unknown
    try {
      body = JSON.parse(request.rawBody)
    } catch {
      return undefined
    }
    const parsed = webhookEvent.safeParse(body)
    if (!parsed.success) return undefined
    const { event } = parsed.data
    const action = CALLBACK_ACTIONS.get(event.event_type)
    // An incident's incident_key is the dedup_key of the Events API alert that opened it.
    const dedupKey = event.data.incident_key
    if (!action || !dedupKey) return undefined
    return { action, dedupKey, by: event.agent?.summary ? `PagerDuty: ${event.agent.summary}` : 'PagerDuty' }
  },
})
