import { parseDuration } from '../../../conditions/duration.ts'
import { FORBIDDEN_HEADERS } from '../../../contracts/http-target.ts'
import type { DocumentEntry, UnmappedItem } from '../import-result.ts'
import type { SecretCollector } from '../secret-placeholders.ts'
import { type GatusEndpoint, gatusEndpoint } from './gatus-schema.ts'
import type { MappedAlerting } from './map-alerting.ts'
import { httpConditionVerdict, serviceConditionVerdict } from './map-conditions.ts'
import { mapEndpointAlerts } from './map-endpoint-alerts.ts'
import { type MaintenanceContext, mapMaintenanceWindow } from './map-maintenance.ts'

export interface EndpointContext {
  sourceOf: (node: unknown) => string
  unmapped: UnmappedItem[]
  secrets: SecretCollector
  alerting: MappedAlerting
  allocateMonitorId: (...candidates: string[]) => string
  groupIdOf: (name: string) => string
  /** The id of the `tags` entry of a tag (`key:value`), added on first use. */
  tagIdOf: (tag: string) => string
  maintenance: MaintenanceContext
}

export interface MappedEndpoint {
  domain?: DocumentEntry
  service?: DocumentEntry
  maintenance: DocumentEntry[]
}

const GUARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
/** The keys every kind of endpoint reads; the kind's own are listed where it is built. */
const COMMON_KEYS = [
  'enabled',
  'name',
  'group',
  'url',
  'interval',
  'conditions',
  'alerts',
  'maintenance-windows',
  'extra-labels',
  'client',
]
const SECRET_HEADER = /token|key|secret|password|cookie/i
const PROBE_HEADER_REASON = 'the probe sets this header itself (Host follows the URL)'

const seconds = (ms: number) => Math.round(ms / 1000)

interface Built {
  kind: 'domain' | 'service'
  fields: Record<string, unknown>
  /** Keys of the endpoint this kind reads. */
  reads: string[]
  /** The service's protocol, for its conditions. */
  protocol?: string
}

/** `tcp://host:port` and friends: WHATWG URLs parse any scheme's host and port. */
function hostAndPort(url: string) {
  const parsed = new URL(url)
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1')
  return { parsed, host, ...(parsed.port ? { port: Number(parsed.port) } : {}) }
}

function mapHttp(
  endpoint: GatusEndpoint,
  id: string,
  at: { source: string; item: string },
  context: EndpointContext,
): Built {
  const fields: Record<string, unknown> = { url: endpoint.url }
  const method = (endpoint.method ?? 'GET').toUpperCase()
  if (!GUARD_METHODS.includes(method)) {
    context.unmapped.push({
      source: at.source,
      item: `${at.item}.method`,
      reason: `Guard's HTTP checks do not send ${method}; GET is used`,
    })
  } else if (method !== 'GET') fields.method = method
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(endpoint.headers ?? {})) {
    const item = `${at.item}.headers.${name}`
    if (FORBIDDEN_HEADERS.includes(name.toLowerCase())) {
      context.unmapped.push({ source: at.source, item, reason: PROBE_HEADER_REASON })
      continue
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(value)
    if (name.toLowerCase() === 'authorization' && bearer) {
      fields.authType = 'bearer'
      fields.credentials = {
        token: context.secrets.secret(bearer[1]!, { kind: 'domain', id, field: 'token', source: at.source, item }),
      }
    } else if (name.toLowerCase() === 'authorization' || SECRET_HEADER.test(name)) {
      headers[name] = context.secrets.secret(value, {
        kind: 'domain',
        id,
        field: `header_${name}`,
        source: at.source,
        item,
      })
    } else {
      headers[name] = value
      context.secrets.reads(value, at.source, item)
    }
  }
  let body = endpoint.body
  if (body !== undefined) {
    body = body
      .replaceAll('[ENDPOINT_NAME]', endpoint.name)
      .replaceAll('[ENDPOINT_GROUP]', endpoint.group ?? '')
      .replaceAll('[ENDPOINT_URL]', endpoint.url)
    for (const placeholder of new Set(body.match(/\[(LOCAL_ADDRESS|RANDOM_STRING_\d+)\]/g) ?? [])) {
      context.unmapped.push({
        source: at.source,
        item: `${at.item}.body ${placeholder}`,
        reason: 'Guard sends the body as written; this placeholder is sent as it is',
      })
    }
    if (endpoint.graphql) {
      body = JSON.stringify({ query: body })
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json'
    }
    if (method === 'GET' || method === 'HEAD') {
      context.unmapped.push({
        source: at.source,
        item: `${at.item}.body`,
        reason: `Guard sends no body with ${method}`,
      })
    } else fields.body = body
  }
  if (Object.keys(headers).length > 0) fields.headers = headers
  const client = endpoint.client ?? {}
  if (client.insecure === true) fields.ignoreTlsErrors = true
  if (client['ignore-redirect'] === true) fields.followRedirects = false
  const conditions: string[] = []
  for (const [index, condition] of endpoint.conditions.entries()) {
    const verdict = httpConditionVerdict(condition)
    if (verdict.kind === 'kept') conditions.push(condition)
    else if (verdict.kind === 'unmapped') {
      context.unmapped.push({
        source: at.source,
        item: `${at.item}.conditions[${index}] ${condition}`,
        reason: verdict.reason,
      })
    }
  }
  if (conditions.length > 0) fields.conditions = conditions
  return { kind: 'domain', fields, reads: ['method', 'headers', 'body', 'graphql'] }
}

/** The service an endpoint of another scheme becomes, or why it becomes none. */
function mapService(
  endpoint: GatusEndpoint,
  at: { source: string; item: string },
  context: EndpointContext,
): Built | string {
  const url = endpoint.url
  if (endpoint.dns) {
    const recordType = endpoint.dns['query-type'].toUpperCase()
    if (!['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'SRV', 'CAA', 'PTR'].includes(recordType)) {
      return `Guard's DNS checks ask for A, AAAA, CNAME, MX, TXT, NS, SOA, SRV, CAA or PTR records, not ${recordType}`
    }
    const server = url.replace(/^dns:\/\//, '')
    return {
      kind: 'service',
      protocol: 'dns',
      reads: ['dns'],
      fields: { protocol: 'dns', protocolConfig: { host: endpoint.dns['query-name'], recordType, server } },
    }
  }
  const scheme = /^([a-z]+):\/\//i.exec(url)?.[1]?.toLowerCase()
  if (url.startsWith('${env:')) {
    return 'the URL starts with an environment variable, so its scheme (the kind of check) is only known when Gatus starts; write the scheme out'
  }
  const { parsed, host, port } = hostAndPort(url)
  switch (scheme) {
    case 'tcp':
      if (port === undefined) return 'a TCP endpoint needs a port'
      return {
        kind: 'service',
        protocol: 'tcp',
        reads: [],
        fields: { protocol: 'tcp', protocolConfig: { host, port } },
      }
    case 'udp':
      if (port === undefined) return 'a UDP endpoint needs a port'
      context.unmapped.push({
        source: at.source,
        item: `${at.item}.url`,
        reason:
          "Guard's UDP check is up only when a reply comes back; Gatus's [CONNECTED] holds once the datagram is sent",
      })
      return {
        kind: 'service',
        protocol: 'udp',
        reads: ['body'],
        fields: {
          protocol: 'udp',
          protocolConfig: { host, port, ...(endpoint.body ? { payload: endpoint.body } : {}) },
        },
      }
    case 'icmp':
      return { kind: 'service', protocol: 'icmp', reads: [], fields: { protocol: 'icmp', protocolConfig: { host } } }
    case 'tls':
      return {
        kind: 'service',
        protocol: 'tls',
        reads: [],
        fields: { protocol: 'tls', protocolConfig: { host, ...(port === undefined ? {} : { port }) } },
      }
    case 'ws':
    case 'wss': {
      const path = `${parsed.pathname || '/'}${parsed.search}`
      return {
        kind: 'service',
        protocol: 'websocket',
        reads: ['body', 'headers'],
        fields: {
          protocol: 'websocket',
          protocolConfig: {
            host,
            ...(port === undefined ? {} : { port }),
            ...(path === '/' ? {} : { path }),
            ...(scheme === 'wss' ? { tls: true } : {}),
            ...(endpoint.headers ? { headers: endpoint.headers } : {}),
            ...(endpoint.body ? { send: endpoint.body } : {}),
          },
        },
      }
    }
    case 'grpc':
    case 'grpcs': {
      const tls = scheme === 'grpcs'
      return {
        kind: 'service',
        protocol: 'grpc',
        reads: [],
        fields: {
          protocol: 'grpc',
          protocolConfig: {
            host,
            ...(port === undefined ? {} : { port }),
            ...(tls ? { tls: true } : {}),
            ...(tls && endpoint.client?.insecure === true ? { ignoreTlsErrors: true } : {}),
          },
        },
      }
    }
    case 'ssh':
      if (endpoint.ssh || endpoint.body) {
        context.unmapped.push({
          source: at.source,
          item: `${at.item}.ssh`,
          reason:
            "Guard's SSH check never logs in (it reads the server's identification, optionally pinning its host key), so the credentials and the command are not carried",
        })
      }
      return {
        kind: 'service',
        protocol: 'ssh',
        reads: ['ssh', 'body'],
        fields: { protocol: 'ssh', protocolConfig: { host, ...(port === undefined ? {} : { port }) } },
      }
    case 'starttls':
      return 'Guard has no generic STARTTLS check (its SMTP, IMAP and POP3 services check STARTTLS for those protocols)'
    case 'sctp':
      return 'Guard has no SCTP check'
    default:
      return `Gatus cannot tell what kind of endpoint ${url} is, and neither can Guard`
  }
}

function applyServiceConditions(
  built: Built,
  endpoint: GatusEndpoint,
  at: { source: string; item: string },
  context: EndpointContext,
) {
  const config = built.fields.protocolConfig as Record<string, unknown>
  for (const [index, condition] of endpoint.conditions.entries()) {
    const verdict = serviceConditionVerdict(condition, built.protocol!)
    const item = `${at.item}.conditions[${index}] ${condition}`
    if (verdict.kind === 'unmapped') context.unmapped.push({ source: at.source, item, reason: verdict.reason })
    if (verdict.kind !== 'option') continue
    if (verdict.name === 'downAboveMs') built.fields.downAboveMs = verdict.value
    else config[verdict.name] = verdict.value
    if (verdict.note) context.unmapped.push({ source: at.source, item, reason: verdict.note })
  }
}

/** The endpoint's interval and client timeout as Guard's seconds, within Guard's bounds. */
function timing(endpoint: GatusEndpoint, at: { source: string; item: string }, context: EndpointContext) {
  const fields: Record<string, number> = {}
  const intervalMs = endpoint.interval === undefined ? undefined : parseDuration(endpoint.interval)
  if (endpoint.interval !== undefined && intervalMs === undefined) {
    context.unmapped.push({
      source: at.source,
      item: `${at.item}.interval`,
      reason: `${endpoint.interval} is not a duration; Guard's default (60 s) applies`,
    })
  } else if (intervalMs !== undefined) {
    const interval = Math.min(Math.max(seconds(intervalMs), 5), 86_400)
    if (interval !== seconds(intervalMs)) {
      context.unmapped.push({
        source: at.source,
        item: `${at.item}.interval`,
        reason: `Guard checks every 5 s to 24 h; ${endpoint.interval} became ${interval} s`,
      })
    }
    fields.checkInterval = interval
  }
  const timeoutText = endpoint.client?.timeout
  if (timeoutText !== undefined) {
    const timeoutMs = parseDuration(String(timeoutText))
    const interval = fields.checkInterval ?? 60
    const timeout = timeoutMs === undefined ? undefined : Math.min(Math.max(Math.ceil(timeoutMs / 1000), 1), 300)
    if (timeout !== undefined && timeout < interval) fields.timeout = timeout
    else {
      context.unmapped.push({
        source: at.source,
        item: `${at.item}.client.timeout`,
        reason: `Guard's timeout is 1 to 300 s and below the interval; ${String(timeoutText)} is not, so Guard's default applies`,
      })
    }
  }
  return fields
}

/** Guard refuses a response-time threshold the timeout would cut short; Gatus would wait for it. */
function dropThresholdPastTimeout(
  entry: DocumentEntry,
  at: { source: string; item: string },
  context: EndpointContext,
) {
  if (typeof entry.downAboveMs !== 'number') return
  const timeoutMs =
    1000 *
    ((entry.timeout as number | undefined) ?? Math.min(30, ((entry.checkInterval as number | undefined) ?? 60) - 1))
  if (entry.downAboveMs < timeoutMs) return
  context.unmapped.push({
    source: at.source,
    item: `${at.item}.conditions [RESPONSE_TIME]`,
    reason: `the check times out after ${timeoutMs} ms, before a threshold of ${entry.downAboveMs} ms could apply`,
  })
  delete entry.downAboveMs
}

const OTHER_REASONS: Record<string, string> = {
  ui: "display settings of Gatus's dashboard",
  store: "Gatus's suites only",
  'always-run': "Gatus's suites only",
}

/** One `endpoints[]` item → a domain (http/https) or a service (every other scheme Guard checks). */
export function mapEndpoint(raw: unknown, index: number, context: EndpointContext): MappedEndpoint {
  const source = context.sourceOf(raw)
  const parsed = gatusEndpoint.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    context.unmapped.push({
      source,
      item: `endpoints[${index}]`,
      reason: `not an endpoint: ${issue?.path.join('.')} ${issue?.message}`,
    })
    return { maintenance: [] }
  }
  const endpoint = parsed.data
  const at = { source, item: `endpoints["${endpoint.name}"]` }
  const isHttp = !endpoint.dns && /^https?:\/\//i.test(endpoint.url)
  const id = context.allocateMonitorId(endpoint.name, `${endpoint.group ?? ''}-${endpoint.name}`)
  let built: Built | string
  try {
    built = isHttp ? mapHttp(endpoint, id, at, context) : mapService(endpoint, at, context)
  } catch {
    built = `${endpoint.url} is not a URL`
  }
  if (typeof built === 'string') {
    context.unmapped.push({ source, item: at.item, reason: built })
    return { maintenance: [] }
  }
  if (built.kind === 'service') applyServiceConditions(built, endpoint, at, context)
  const labels = Object.entries(endpoint['extra-labels'] ?? {}).map(([key, value]) =>
    context.tagIdOf(`${key}:${value}`),
  )
  const alerts = mapEndpointAlerts(endpoint.alerts, at, context.alerting, context.unmapped)
  const entry: DocumentEntry = {
    id,
    name: endpoint.name,
    ...built.fields,
    ...timing(endpoint, at, context),
    ...(endpoint.enabled === false ? { enabled: false } : {}),
    ...(labels.length > 0 ? { tags: labels } : {}),
    ...(endpoint.group ? { group: context.groupIdOf(endpoint.group) } : {}),
    ...(alerts.failureThreshold === undefined ? {} : { failureThreshold: alerts.failureThreshold }),
    ...(alerts.channels ? { channels: alerts.channels } : {}),
  }
  dropThresholdPastTimeout(entry, at, context)
  for (const key of Object.keys(endpoint)) {
    if (COMMON_KEYS.includes(key) || built.reads.includes(key)) continue
    context.unmapped.push({
      source,
      item: `${at.item}.${key}`,
      reason: OTHER_REASONS[key] ?? `not an option of Guard's ${built.protocol ?? 'HTTP'} check`,
    })
  }
  const clientKeys = isHttp
    ? ['timeout', 'insecure', 'ignore-redirect']
    : built.protocol === 'grpc'
      ? ['timeout', 'insecure']
      : ['timeout']
  for (const key of Object.keys(endpoint.client ?? {})) {
    if (clientKeys.includes(key)) continue
    context.unmapped.push({
      source,
      item: `${at.item}.client.${key}`,
      reason: `not an option of Guard's ${built.protocol ?? 'HTTP'} check`,
    })
  }
  const maintenance = endpoint['maintenance-windows'].flatMap((window, windowIndex) =>
    mapMaintenanceWindow(
      window,
      {
        source,
        item: `${at.item}.maintenance-windows[${windowIndex}]`,
        title: `${endpoint.name} maintenance`,
        idBase: `${id}-maintenance`,
        monitors: [id],
      },
      context.maintenance,
    ),
  )
  return { [built.kind]: entry, maintenance }
}
