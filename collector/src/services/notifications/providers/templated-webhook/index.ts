import { Liquid } from 'liquidjs'
import { z } from 'zod'
import { type Alert, alertColor, classifyHttp, defineProvider, headline, httpUrl } from '../provider.ts'

const TEMPLATE_MAX = 20_000
/** The most a rendered body may be; a template that loops past it is a broken channel, not a big alert. */
export const BODY_MAX = 64 * 1024

/**
 * Liquid, sandboxed: `templates: {}` makes include/render/layout look up an empty in-memory map
 * instead of the file system, templates only see own properties, and parse size, render time and
 * allocations are bounded. `json` encodes any value (undefined as null) for JSON bodies.
 */
const engine = new Liquid({
  templates: {},
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  parseLimit: TEMPLATE_MAX,
  renderLimit: 200,
  memoryLimit: 1_000_000,
})
engine.registerFilter('json', (value: unknown) => JSON.stringify(value ?? null))

/** What a template sees; `alert` is the whole alert as plain data. */
export function templateScope(alert: Alert) {
  return {
    alert: JSON.parse(JSON.stringify(alert)) as unknown,
    incident: alert.incident ?? null,
    monitor: alert.monitor ?? null,
    title: alert.title,
    headline: headline(alert),
    text: alert.text,
    link: alert.link,
    severity: alert.severity,
    kind: alert.kind,
    eventType: alert.eventType,
    occurredAt: alert.occurredAt,
    color: alertColor(alert),
    acknowledgeUrl: alert.acknowledgeUrl ?? null,
    items: alert.items ?? [],
  }
}

export function renderBody(template: string, alert: Alert): string {
  const body = engine.renderSync(engine.parse(template), templateScope(alert))
  if (typeof body !== 'string') throw new Error('the template did not render text')
  if (body.length > BODY_MAX) throw new Error(`the rendered body is over ${BODY_MAX} characters`)
  return body
}

// Rendered once when the channel is saved, so that a lookup of a missing partial or a runaway loop
// is refused then rather than at the first incident.
const PREVIEW: Alert = {
  kind: 'opened',
  eventType: 'incident.opened',
  eventId: 'evt_preview',
  organizationId: 'org_preview',
  occurredAt: '2026-01-01T00:00:00.000Z',
  title: 'Checkout API is down',
  text: 'Down from 2 of 3 locations: connection refused',
  link: 'https://guard.example/console/incidents/inc_preview',
  severity: 'critical',
  incident: {
    id: 'inc_preview',
    dedupKey: 'guard-inc_preview',
    status: 'open',
    cause: 'down',
    detectedAt: '2026-01-01T00:00:00.000Z',
  },
  monitor: { id: 'svc_preview', kind: 'service' },
  acknowledgeUrl: 'https://guard.example/ack/preview',
}

const templateError = (template: string): string | undefined => {
  try {
    renderBody(template, PREVIEW)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection'])
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be an HTTP header name')
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'is set by Guard (contentType for content-type)')
const headerValue = z
  .string()
  .max(4000)
  .regex(/^[^\r\n]*$/, 'must be one line')
const headerRecord = z
  .record(headerName, headerValue)
  .refine((headers) => Object.keys(headers).length <= 20, 'at most 20 headers')

const VARIABLES =
  'Liquid variables: title, headline (title with what happened: "Resolved: …"), text, link, severity (low|medium|high|critical), kind (opened|reopened|updated|acknowledged|resolved|reminder|escalated|digest|test), eventType, occurredAt, color, acknowledgeUrl (null when none), incident {id, dedupKey, status, cause, detectedAt, resolvedAt} or null, monitor {id, kind} or null, items (a digest’s alerts: kind, title, text, occurredAt, severity, link), alert (all of it). Filters: Liquid’s standard ones plus json, which encodes any value for a JSON body: {"text": {{ text | json }}}.'

export const templatedWebhook = defineProvider({
  id: 'templated-webhook',
  label: 'Webhook (custom template)',
  description:
    'Any HTTP API: a request per alert to your URL, with your headers and a body you write as a Liquid template.',
  config: z
    .strictObject({
      url: httpUrl.describe('Receives a request per alert'),
      method: z.enum(['POST', 'PUT', 'PATCH']).default('POST').describe('The HTTP method'),
      headers: headerRecord.default({}).describe('Headers sent as they are (name → value); shown back in the console'),
      secretHeaders: headerRecord
        .default({})
        .describe('Headers holding credentials (Authorization, API keys): sealed at rest, never shown back'),
      contentType: z
        .string()
        .regex(/^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=[\w.+-]+)*$/, 'must be a media type')
        .default('application/json')
        .describe('The Content-Type of the body'),
      bodyTemplate: z
        .string()
        .min(1)
        .max(TEMPLATE_MAX)
        .superRefine((template, ctx) => {
          const error = templateError(template)
          if (error) ctx.addIssue({ code: 'custom', message: `template: ${error}` })
        })
        .describe(`The body, a Liquid template. ${VARIABLES}`),
    })
    .superRefine((config, ctx) => {
      const plain = new Set(Object.keys(config.headers).map((name) => name.toLowerCase()))
      for (const name of Object.keys(config.secretHeaders)) {
        if (plain.has(name.toLowerCase())) {
          ctx.addIssue({ code: 'custom', path: ['secretHeaders', name], message: 'is also in headers' })
        }
      }
    }),
  secretFields: ['secretHeaders'],
  urlFields: ['url'],
  async send(alert, config, io) {
    let body: string
    try {
      body = renderBody(config.bodyTemplate, alert)
    } catch (error) {
      // The same template fails the same way on every attempt: the channel needs fixing.
      const message = error instanceof Error ? error.message : String(error)
      return { ok: false, statusCode: null, error: `template: ${message}`, permanent: true }
    }
    return classifyHttp(
      await io.http({
        method: config.method,
        url: config.url,
        headers: { ...config.headers, ...config.secretHeaders, 'content-type': config.contentType },
        body,
      }),
    )
  },
})
