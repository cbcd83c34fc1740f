import { ConditionSyntaxError, parseCondition } from '../../../conditions/parse.ts'
import { FORBIDDEN_HEADERS, headerName, headerValue } from '../../../contracts/http-target.ts'
import type { ImportContext } from './context.ts'
import { idAllocator } from './keys.ts'
import type { KumaMonitor } from './source.ts'

type Entry = { id: string } & Record<string, unknown>

/** Tags and channels of a monitor, by the source's monitor id, as document ids. */
export interface MonitorLinks {
  tagsOf(monitorId: number): string[]
  channelsOf(monitorId: number): string[]
}

export interface MappedMonitors {
  groups: Entry[]
  domains: Entry[]
  services: Entry[]
  heartbeats: Entry[]
  /** Source monitor id → document id, for maintenance windows and status pages. */
  monitorIds: Map<number, string>
}

const HTTP_TYPES = new Set(['http', 'keyword', 'json-query'])
/** Uptime Kuma database monitors Guard checks with a protocol of its own. */
const DATABASE_PROTOCOLS: Record<string, string> = {
  postgres: 'postgres',
  mysql: 'mysql',
  redis: 'redis',
  mongodb: 'mongodb',
}
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
/** Header names whose values are credentials, written as references like the other secrets. */
const SECRET_HEADER = /authorization|cookie|token|secret|api-?key|password/i
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)))

/** What every kind of check shares: schedule, retries and state. */
function checkFields(monitor: KumaMonitor) {
  const checkInterval = clamp(monitor.interval ?? 60, 5, 86_400)
  const fields: Record<string, unknown> = {
    name: monitor.name,
    checkInterval,
    // Uptime Kuma retries `maxretries` times before down; Guard counts the failed checks, the first included.
    failureThreshold: clamp((monitor.maxretries ?? 0) + 1, 1, 100),
  }
  if (monitor.timeout !== undefined && monitor.timeout > 0) {
    fields.timeout = clamp(Math.min(monitor.timeout, checkInterval - 1, 300), 1, 300)
  }
  if (!monitor.active) fields.enabled = false
  return fields
}

/** Uptime Kuma's JSONata path when it is a plain path (`data.items[0].status`), as a JSONPath and a [BODY] path. */
function plainPath(expression: string): { jsonPath: string; body: string } | undefined {
  const path = expression.trim().replace(/^\$\.?/, '')
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*|\[\d+\])*$/.test(path)) return undefined
  return { jsonPath: `$.${path}`, body: `[BODY].${path}` }
}

/** `"ok"` → 'ok', `"200"` → 200, `"true"` → true: what the answer's JSON value is compared with. */
function jsonValue(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true'
  if (text !== '' && Number.isFinite(Number(text))) return Number(text)
  return text
}

const CONDITION_OPERATORS = new Set(['!=', '<', '<=', '>', '>='])

function mapJsonQuery(monitor: KumaMonitor, fields: Record<string, unknown>, context: ImportContext): boolean {
  const path = plainPath(monitor.json_path ?? '')
  const operator = monitor.json_path_operator ?? '=='
  const expected = monitor.expected_value ?? ''
  if (!path) {
    context.leave(
      'monitor',
      monitor.name,
      `JSON query "${monitor.json_path}" is a JSONata expression, not a plain path`,
    )
    return false
  }
  if (operator === '==') {
    fields.jsonPath = { path: path.jsonPath, equals: jsonValue(expected) }
    return true
  }
  // Orderings compare numbers; Guard refuses to order text.
  const value = expected !== '' && Number.isFinite(Number(expected)) ? expected : JSON.stringify(expected)
  const condition = CONDITION_OPERATORS.has(operator)
    ? `${path.body} ${operator} ${value}`
    : operator === 'contains'
      ? `${path.body} == pat(*${expected}*)`
      : undefined
  try {
    if (!condition) throw new ConditionSyntaxError(`operator ${operator}`, 0)
    parseCondition(condition)
    fields.conditions = [condition]
    return true
  } catch (error) {
    if (!(error instanceof ConditionSyntaxError)) throw error
    context.leave(
      'monitor',
      monitor.name,
      `JSON query operator "${operator}" with "${expected}" has no Guard condition`,
    )
    return false
  }
}

/** A JSON column as its value; what does not parse is reported and read as absent. */
function json(monitor: KumaMonitor, field: string, text: string | undefined, context: ImportContext): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    context.leave('monitor', `${monitor.name}: ${field}`, 'not valid JSON in Uptime Kuma either; left out')
    return undefined
  }
}

function acceptedStatus(monitor: KumaMonitor, context: ImportContext): Array<string | number> | undefined {
  const codes = json(monitor, 'accepted status codes', monitor.accepted_statuscodes_json, context)
  if (!Array.isArray(codes)) return undefined
  return codes.map((code) => (/^\d{3}$/.test(String(code)) ? Number(code) : String(code)))
}

/**
 * The headers Guard's check can send: those the probe sets itself, malformed ones and an
 * Authorization beside Guard's own authentication are reported; credential-like values become
 * references.
 */
function checkHeaders(
  monitor: KumaMonitor,
  headers: Record<string, unknown>,
  authenticated: boolean,
  id: string,
  context: ImportContext,
): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, raw] of Object.entries(headers)) {
    const value = String(raw)
    const lower = name.toLowerCase()
    const refused = FORBIDDEN_HEADERS.includes(lower)
      ? 'the probe sets it'
      : lower === 'authorization' && authenticated
        ? "the monitor's authentication sets it"
        : !headerName.safeParse(name).success || !headerValue.safeParse(value).success
          ? 'not a valid header'
          : undefined
    if (refused) context.leave('monitor', `${monitor.name}: header ${name}`, refused)
    else kept[name] = SECRET_HEADER.test(name) ? context.secret('domains', id, `headers.${name}`) : value
  }
  return kept
}

/** An http / keyword / json-query monitor as a domain: the HTTP check with its options. */
function mapDomain(monitor: KumaMonitor, id: string, context: ImportContext): Entry | undefined {
  const url = monitor.url ?? ''
  if (!/^https?:\/\//i.test(url)) {
    context.leave('monitor', monitor.name, `URL "${url}" is not http(s)`)
    return undefined
  }
  const fields: Record<string, unknown> = { url, ...checkFields(monitor) }
  const method = (monitor.method ?? 'GET').toUpperCase()
  if (!HTTP_METHODS.has(method))
    context.leave('monitor', `${monitor.name}: method`, `Guard has no ${method} checks; GET is used`)
  else if (method !== 'GET') fields.method = method
  if (monitor.body && method !== 'GET' && method !== 'HEAD') fields.body = monitor.body
  const parsed = json(monitor, 'headers', monitor.headers, context)
  const headers: Record<string, unknown> = parsed && typeof parsed === 'object' ? { ...parsed } : {}
  const authorization = Object.keys(headers).find((name) => name.toLowerCase() === 'authorization')
  const auth = monitor.auth_method ?? (monitor.basic_auth_user ? 'basic' : undefined)
  // A bearer token given as a header is Guard's bearer authentication, kept apart from the headers.
  if (authorization && /^Bearer\s/i.test(String(headers[authorization])) && (!auth || auth === 'none')) {
    delete headers[authorization]
    fields.authType = 'bearer'
    fields.credentials = { token: context.secret('domains', id, 'credentials.token') }
  }
  const authenticated =
    fields.authType !== undefined ||
    (auth === 'basic' && monitor.basic_auth_user !== undefined) ||
    (auth === 'bearer' && monitor.bearer_token !== undefined)
  const kept = checkHeaders(monitor, headers, authenticated, id, context)
  if (Object.keys(kept).length > 0) fields.headers = kept
  const expectedStatus = acceptedStatus(monitor, context)
  if (expectedStatus) fields.expectedStatus = expectedStatus
  if (monitor.maxredirects === 0) fields.followRedirects = false
  else if (monitor.maxredirects !== undefined && monitor.maxredirects !== 10) {
    context.leave(
      'monitor',
      `${monitor.name}: max redirects`,
      `Guard follows up to 10 redirects, not ${monitor.maxredirects}`,
    )
  }
  if (monitor.ignore_tls) fields.ignoreTlsErrors = true
  if (monitor.type === 'keyword' && monitor.keyword) {
    fields.keyword = monitor.keyword
    if (monitor.invert_keyword) fields.keywordAbsent = true
  }
  if (monitor.type === 'json-query' && !mapJsonQuery(monitor, fields, context)) return undefined
  if (auth === 'basic' && monitor.basic_auth_user) {
    fields.authType = 'basic'
    fields.credentials = {
      username: monitor.basic_auth_user,
      password: context.secret('domains', id, 'credentials.password'),
    }
  } else if (auth === 'bearer' && monitor.bearer_token) {
    fields.authType = 'bearer'
    fields.credentials = { token: context.secret('domains', id, 'credentials.token') }
  } else if (auth && auth !== 'basic' && auth !== 'bearer' && auth !== 'none') {
    context.leave(
      'monitor',
      `${monitor.name}: authentication`,
      `Guard has no ${auth} authentication; imported without it`,
    )
  }
  return { id, ...fields }
}

/** `postgres://user:pass@host:5433/db`: the parts Guard's database protocols take. */
function connection(monitor: KumaMonitor): URL | undefined {
  try {
    return new URL(monitor.database_connection_string ?? '')
  } catch {
    return undefined
  }
}

function mapDatabase(monitor: KumaMonitor, id: string, context: ImportContext): Entry | undefined {
  const url = connection(monitor)
  if (!url?.hostname) {
    context.leave(
      'monitor',
      monitor.name,
      'its connection string is not a URL Guard can read (host, port, user, database)',
    )
    return undefined
  }
  const protocol = DATABASE_PROTOCOLS[monitor.type]!
  const config: Record<string, unknown> = { host: url.hostname }
  if (url.port) config.port = Number(url.port)
  if (url.username) config.username = decodeURIComponent(url.username)
  if (url.password) config.password = context.secret('services', id, 'protocolConfig.password')
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  if (database && (protocol === 'postgres' || protocol === 'mysql')) config.database = database
  if (url.searchParams.get('ssl') === 'true' || url.searchParams.get('sslmode') === 'require') config.tls = true
  if (monitor.database_query && (protocol === 'postgres' || protocol === 'mysql')) config.query = monitor.database_query
  else if (monitor.database_query) {
    context.leave(
      'monitor',
      `${monitor.name}: query`,
      `Guard runs ${protocol} queries in its own form; the check pings instead`,
    )
  }
  return { id, ...checkFields(monitor), protocol, protocolConfig: config }
}

/** `mqtt://broker` or `broker`: Uptime Kuma keeps the scheme in the host field. */
function mapMqtt(monitor: KumaMonitor, id: string, context: ImportContext): Entry {
  const host = (monitor.hostname ?? '').replace(/^[a-z]+:\/\//i, '')
  const config: Record<string, unknown> = { host }
  if (/^mqtts:\/\//i.test(monitor.hostname ?? '')) config.tls = true
  if (monitor.port) config.port = monitor.port
  if (monitor.mqtt_username) config.username = monitor.mqtt_username
  if (monitor.mqtt_password) config.password = context.secret('services', id, 'protocolConfig.password')
  if (monitor.mqtt_topic) config.topic = monitor.mqtt_topic
  if (monitor.mqtt_topic && monitor.mqtt_success_message) {
    if ((monitor.mqtt_check_type ?? 'keyword') === 'keyword') config.messageContains = monitor.mqtt_success_message
    else
      context.leave('monitor', `${monitor.name}: message check`, 'Guard checks MQTT messages by text, not JSON query')
  }
  return { id, ...checkFields(monitor), protocol: 'mqtt', protocolConfig: config }
}

/** Uptime Kuma calls any method with a protobuf body; Guard asks the standard health service. */
function mapGrpc(monitor: KumaMonitor, id: string, context: ImportContext): Entry | undefined {
  const match = /^(?:[a-z]+:\/\/)?([^:/]+)(?::(\d+))?/i.exec(monitor.grpc_url ?? '')
  if (!match) {
    context.leave('monitor', monitor.name, `gRPC URL "${monitor.grpc_url}" has no host`)
    return undefined
  }
  const config: Record<string, unknown> = { host: match[1] }
  if (match[2]) config.port = Number(match[2])
  if (monitor.grpc_enable_tls) config.tls = true
  if (monitor.grpc_service_name) config.service = monitor.grpc_service_name
  context.leave(
    'monitor',
    `${monitor.name}: gRPC call`,
    `Guard calls grpc.health.v1.Health/Check for the service instead of ${monitor.grpc_method ?? 'the method'} with a keyword`,
  )
  return { id, ...checkFields(monitor), protocol: 'grpc', protocolConfig: config }
}

/** `wss://host:port/path`: Guard's WebSocket check takes the parts. */
function mapWebsocket(monitor: KumaMonitor, id: string, context: ImportContext): Entry | undefined {
  let url: URL
  try {
    url = new URL(monitor.url ?? '')
  } catch {
    context.leave('monitor', monitor.name, `URL "${monitor.url}" is not a ws:// or wss:// URL`)
    return undefined
  }
  const tls = url.protocol === 'wss:'
  const config: Record<string, unknown> = { host: url.hostname }
  if (url.port) config.port = Number(url.port)
  if (url.pathname !== '/' || url.search) config.path = `${url.pathname}${url.search}`
  if (tls) config.tls = true
  if (tls && monitor.ignore_tls) config.ignoreTlsErrors = true
  const subprotocols = (monitor.ws_subprotocol ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  if (subprotocols.length > 0) config.subprotocols = subprotocols
  if (monitor.auth_method === 'bearer' && monitor.bearer_token) {
    config.authorization = context.secret('services', id, 'protocolConfig.authorization')
  }
  if (monitor.headers && monitor.headers !== '{}') {
    context.leave(
      'monitor',
      `${monitor.name}: headers`,
      'set them on the WebSocket check after review (Authorization as its secret)',
    )
  }
  return { id, ...checkFields(monitor), protocol: 'websocket', protocolConfig: config }
}

/** Uptime Kuma's SMTP security: SMTPS, STARTTLS required, or plain. */
const SMTP_TLS: Record<string, string> = { secure: 'implicit', starttls: 'starttls', nostarttls: 'none' }

function mapService(monitor: KumaMonitor, id: string, context: ImportContext): Entry | undefined {
  const host = monitor.hostname ?? ''
  switch (monitor.type) {
    case 'port':
      return { id, ...checkFields(monitor), protocol: 'tcp', protocolConfig: { host, port: monitor.port } }
    case 'ping': {
      const count = monitor.ping_count && monitor.ping_count > 1 ? { count: Math.min(monitor.ping_count, 10) } : {}
      return { id, ...checkFields(monitor), protocol: 'icmp', protocolConfig: { host, ...count } }
    }
    case 'dns': {
      const config: Record<string, unknown> = { host, recordType: monitor.dns_resolve_type ?? 'A' }
      const server = monitor.dns_resolve_server?.split(',')[0]?.trim()
      if (server) config.server = monitor.port && monitor.port !== 53 ? `${server}:${monitor.port}` : server
      return { id, ...checkFields(monitor), protocol: 'dns', protocolConfig: config }
    }
    case 'tls':
      return { id, ...checkFields(monitor), protocol: 'tls', protocolConfig: { host, port: monitor.port ?? 443 } }
    case 'mqtt':
      return mapMqtt(monitor, id, context)
    case 'websocket-upgrade':
      return mapWebsocket(monitor, id, context)
    case 'smtp': {
      const config: Record<string, unknown> = { host }
      if (monitor.port) config.port = monitor.port
      const tls = SMTP_TLS[monitor.smtp_security ?? '']
      if (tls) config.tls = tls
      return { id, ...checkFields(monitor), protocol: 'smtp', protocolConfig: config }
    }
    case 'grpc-keyword':
      return mapGrpc(monitor, id, context)
    default:
      return mapDatabase(monitor, id, context)
  }
}

/** A push monitor waits for pings like a heartbeat; Guard issues the ping URL anew. */
function mapHeartbeat(monitor: KumaMonitor, id: string, context: ImportContext): Entry {
  context.leave(
    'monitor',
    `${monitor.name}: push URL`,
    'Guard gives the heartbeat a new ping URL; point the job at it after apply',
  )
  const entry: Entry = { id, name: monitor.name, every: clamp(monitor.interval ?? 60, 5, 31_536_000) }
  if (!monitor.active) entry.enabled = false
  return entry
}

const SERVICE_TYPES = new Set([
  'port',
  'ping',
  'dns',
  'tls',
  'smtp',
  'websocket-upgrade',
  'mqtt',
  'grpc-keyword',
  ...Object.keys(DATABASE_PROTOCOLS),
])

function unmappedReason(monitor: KumaMonitor): string | undefined {
  if (monitor.upside_down) return 'upside-down mode (up when the check fails) has no Guard equivalent'
  if (HTTP_TYPES.has(monitor.type) || SERVICE_TYPES.has(monitor.type) || monitor.type === 'push') return undefined
  if (monitor.type === 'group') return undefined
  return `Guard has no ${monitor.type} monitor`
}

/**
 * Every monitor Guard has a kind for: http, keyword and json-query as domains; port, ping, dns,
 * tls, smtp, WebSocket, mqtt, gRPC and the databases as services; push as heartbeats; groups as groups with their
 * members. The rest is left behind with the reason.
 */
export function mapMonitors(monitors: KumaMonitor[], links: MonitorLinks, context: ImportContext): MappedMonitors {
  const mapped: MappedMonitors = { groups: [], domains: [], services: [], heartbeats: [], monitorIds: new Map() }
  const monitorId = idAllocator('monitor')
  const groupId = idAllocator('group')
  const groupIds = new Map<number, string>()
  for (const monitor of monitors.filter((candidate) => candidate.type === 'group')) {
    groupIds.set(monitor.id, groupId(monitor.name))
  }
  for (const monitor of monitors) {
    const reason = unmappedReason(monitor)
    if (reason) {
      context.leave('monitor', monitor.name, reason)
      continue
    }
    if (monitor.type === 'group') {
      const group: Entry = { id: groupIds.get(monitor.id)!, name: monitor.name.slice(0, 100) }
      const parent = monitor.parent === undefined ? undefined : groupIds.get(monitor.parent)
      if (parent) group.parent = parent
      mapped.groups.push(group)
      continue
    }
    const id = monitorId(monitor.name)
    const entry = HTTP_TYPES.has(monitor.type)
      ? mapDomain(monitor, id, context)
      : monitor.type === 'push'
        ? mapHeartbeat(monitor, id, context)
        : mapService(monitor, id, context)
    if (!entry) continue
    const tags = links.tagsOf(monitor.id)
    if (tags.length > 0) entry.tags = tags
    const group = monitor.parent === undefined ? undefined : groupIds.get(monitor.parent)
    if (group) entry.group = group
    const channels = links.channelsOf(monitor.id)
    if (channels.length > 0) entry.channels = channels
    if (monitor.type !== 'push' && monitor.retry_interval && monitor.retry_interval !== monitor.interval) {
      context.leave('monitor', `${monitor.name}: retry interval`, 'Guard retries at the check interval')
    }
    if (monitor.resend_interval) {
      context.leave('monitor', `${monitor.name}: resend interval`, 'reminders are set on notification routes in Guard')
    }
    if (monitor.proxy_id) context.leave('monitor', `${monitor.name}: proxy`, 'Guard probes connect directly')
    if (monitor.conditions && monitor.conditions !== '[]') {
      context.leave('monitor', `${monitor.name}: conditions`, "Uptime Kuma's DNS/SNMP conditions are not carried over")
    }
    const list = HTTP_TYPES.has(monitor.type) ? 'domains' : monitor.type === 'push' ? 'heartbeats' : 'services'
    mapped[list].push(entry)
    mapped.monitorIds.set(monitor.id, id)
  }
  return mapped
}
