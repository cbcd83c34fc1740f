import { z } from 'zod'

/**
 * What a channel is told, frozen when the delivery is queued: every provider renders the same
 * alert its own way. `kind` is the moment in the incident's life; `incident.dedupKey` is stable
 * for the incident, so tools that open their own incidents (PagerDuty, Opsgenie) close the one
 * they opened when Guard's resolves.
 */
export const alertKinds = [
  'opened',
  'reopened',
  'updated',
  'acknowledged',
  'resolved',
  'reminder',
  'escalated',
  'digest',
  'test',
] as const
export const alertKind = z.enum(alertKinds)
export type AlertKind = z.infer<typeof alertKind>

export const alertSeverity = z.enum(['low', 'medium', 'high', 'critical'])

const digestItem = z.object({
  kind: alertKind,
  title: z.string(),
  text: z.string(),
  occurredAt: z.string(),
  severity: alertSeverity,
  link: z.string(),
})

export const alert = z.object({
  kind: alertKind,
  /** The platform event it comes from (`incident.opened`…), or `test` / `digest`. */
  eventType: z.string(),
  eventId: z.string(),
  organizationId: z.string(),
  occurredAt: z.string(),
  /** One line, plain text: "Checkout API is down". */
  title: z.string(),
  /** What happened, in a sentence or two, plain text. */
  text: z.string(),
  /** The page of the console this is about. */
  link: z.string(),
  severity: alertSeverity,
  incident: z
    .object({
      id: z.string(),
      /** Stable for the incident across reopenings: `guard-<incident id>`. */
      dedupKey: z.string(),
      status: z.string(),
      cause: z.string(),
      detectedAt: z.string(),
      resolvedAt: z.string().optional(),
    })
    .optional(),
  monitor: z.object({ id: z.string(), kind: z.string() }).optional(),
  /** A signed link that acknowledges the incident (stops its escalation), when it can be acknowledged. */
  acknowledgeUrl: z.string().optional(),
  /** A digest's alerts, oldest first. */
  items: z.array(digestItem).optional(),
  /** The event's own data, for receivers that want everything (webhooks). */
  data: z.unknown().optional(),
})
export type Alert = z.infer<typeof alert>

/** An HTTP request a provider wants sent; `json` and `form` set their content type. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  json?: unknown
  form?: Record<string, string>
  body?: string
}

export interface HttpResponse {
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
  /** The first 64 KiB of the body, as text. */
  body: string
}

/**
 * What one attempt did. A failure is retried with the outbox's backoff, or after `retryAfterMs`
 * when the service said when; `permanent` means the channel's configuration is wrong (a 4xx
 * the service would answer again): the channel is marked failing and the delivery is not retried.
 */
export type DeliveryResult =
  | { ok: true; statusCode: number | null }
  | { ok: false; statusCode: number | null; error: string; retryAfterMs?: number; permanent?: boolean }

export interface OutgoingEmail {
  to: string[]
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
}

/** What a provider may do; the outbox supplies it, tests supply their own. */
export interface ProviderIO {
  /** Sends through the SSRF guard (every request, at send time), no redirects, bounded answer. */
  http(request: HttpRequest): Promise<HttpResponse>
  /** Sends an e-mail through the operator's SMTP server. */
  mail(email: OutgoingEmail): Promise<DeliveryResult>
  /** The same for every attempt of one delivery: pass it where the service deduplicates. */
  idempotencyKey: string
}

/** An acknowledgement or resolution a service called back with (PagerDuty, Opsgenie webhooks). */
export interface CallbackAction {
  action: 'acknowledge' | 'resolve'
  dedupKey: string
  by: string
}

export interface NotificationProvider<C extends z.ZodObject = z.ZodObject> {
  id: string
  label: string
  description: string
  /** The channel's settings, secret fields included; the API validates against it. */
  config: C
  /** Fields of `config` sealed at rest and never shown back (only whether they are set). */
  secretFields: readonly (keyof z.infer<C> & string)[]
  /** Fields of `config` holding URLs; the SSRF guard vets them when the channel is saved. */
  urlFields: readonly (keyof z.infer<C> & string)[]
  /** Secrets Guard makes when a new channel leaves them out (a signing secret), shown once. */
  generateSecrets?(): Partial<Record<keyof z.infer<C> & string, string>>
  send(alert: Alert, config: z.infer<C>, io: ProviderIO): Promise<DeliveryResult>
  /**
   * Reads a call from the service back to Guard (its webhook) after checking it came from the
   * service; undefined when the call is not one Guard acts on.
   */
  callback?(
    request: { headers: Record<string, string | undefined>; rawBody: string },
    config: z.infer<C>,
  ): CallbackAction | undefined
}

export const defineProvider = <C extends z.ZodObject>(provider: NotificationProvider<C>) => provider

const parseRetryAfter = (value: string | undefined, now = Date.now()): number | undefined => {
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

const snippet = (body: string) => body.replace(/\s+/g, ' ').trim().slice(0, 300)

/**
 * The usual reading of an HTTP answer: 2xx sent; 429 (and 503) retried when `Retry-After` says;
 * 408, 425 and 5xx retried with backoff; any other 4xx is the channel's configuration (a revoked
 * token, a deleted webhook), which the same request would meet again.
 */
export function classifyHttp(response: HttpResponse): DeliveryResult {
  const { status } = response
  if (status >= 200 && status < 300) return { ok: true, statusCode: status }
  const error = `${status}${response.body ? `: ${snippet(response.body)}` : ''}`
  const retryAfterMs = parseRetryAfter(response.headers['retry-after'])
  if (status === 429 || status === 408 || status === 425 || status >= 500) {
    return { ok: false, statusCode: status, error, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
  }
  return { ok: false, statusCode: status, error, permanent: true }
}

/** A provider that sends one HTTP request per alert. */
export function defineHttpProvider<C extends z.ZodObject>(
  provider: Omit<NotificationProvider<C>, 'send'> & {
    request(alert: Alert, config: z.infer<C>, io: Pick<ProviderIO, 'idempotencyKey'>): HttpRequest
    /** Reads the answer when the service says more than its status (Telegram's `retry_after`). */
    classify?(response: HttpResponse): DeliveryResult
  },
): NotificationProvider<C> & { request: typeof provider.request } {
  const classify = provider.classify ?? classifyHttp
  return {
    ...provider,
    async send(alert, config, io) {
      return classify(await io.http(provider.request(alert, config, io)))
    },
  }
}

/** Colours people read at a glance, per alert: red down, orange/yellow by severity, green resolved. */
export function alertColor(alert: Pick<Alert, 'kind' | 'severity'>): string {
  if (alert.kind === 'resolved') return '#2eb67d'
  if (alert.kind === 'acknowledged') return '#3b82f6'
  if (alert.kind === 'test' || alert.kind === 'digest') return '#6b7280'
  return { critical: '#e01e5a', high: '#f97316', medium: '#eab308', low: '#9ca3af' }[alert.severity]
}

/** The title with what happened in front, for services that show one line. */
export function headline(alert: Pick<Alert, 'kind' | 'title'>): string {
  const prefix: Record<AlertKind, string> = {
    opened: '',
    reopened: 'Down again: ',
    updated: 'Update: ',
    acknowledged: 'Acknowledged: ',
    resolved: 'Resolved: ',
    reminder: 'Still open: ',
    escalated: 'Escalated: ',
    digest: '',
    test: '',
  }
  return `${prefix[alert.kind]}${alert.title}`
}

/** An `http(s)://` URL; channels whose service is self-hosted take one as their base. */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).max(2000)

/** Joins a configurable base URL (with or without a trailing slash) and a path. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
