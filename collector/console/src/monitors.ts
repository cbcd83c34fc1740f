/** Shapes of the monitoring API the domain and service screens read (see the OpenAPI document). */
export type MonitorState = 'up' | 'down' | 'unknown'

export interface LastError {
  kind: string
  message: string
  at: string
  location?: string
}

export interface DomainItem {
  id: string
  url: string
  name: string
  status: MonitorState
  enabled: boolean
  /** Over the last 24 hours; null before the first check. */
  uptimePercentage: number | null
  responseTime: number | null
  createdAt: string
  lastError?: LastError | null
  failingLocations?: string[]
  tags?: string[]
}

export interface HttpOptions {
  method?: string
  headers?: Record<string, string>
  body?: string
  expectedStatus?: Array<number | string>
  keyword?: string
  keywordAbsent?: boolean
  regex?: string
  jsonPath?: { path: string; equals?: unknown }
  followRedirects?: boolean
  degradedAboveMs?: number
  ignoreTlsErrors?: boolean
  /** Gatus-style assertions, one per entry (README "Conditions"). */
  conditions?: string[]
}

export interface DomainDetail extends DomainItem, HttpOptions {
  lastCheck: string | null
  checkInterval: number
  enabled: boolean
  certificate: { valid: boolean; expiresAt: string; issuer: string } | null
  timeout?: number
  locations?: string[]
  isApi?: boolean
  authType?: 'none' | 'basic' | 'bearer'
  credentialsSet?: boolean
  tags?: string[]
  failureThreshold?: number
  quorumPercent?: number
  /** Slower answers are down; `degradedAboveMs` is the HTTP option. */
  downAboveMs?: number
}

export interface Phases {
  dnsMs?: number
  connectMs?: number
  tlsMs?: number
  firstByteMs?: number
  transferMs?: number
  /** Databases: from the signed-in connection to the query's answer. */
  queryMs?: number
}

export interface HistoryEntry {
  id: string
  status: string
  responseTime: number
  statusCode?: number
  timestamp: string
  location?: string
  phases?: Phases
  errorKind?: string
  error?: string
  message?: string
}

export interface LocationPoint {
  timestamp: string
  status: string
  responseTime: number
}

export interface DomainStats {
  /** Null without a check in the period, as are the response times. */
  uptime_percentage: number | null
  total_checks: number
  failed_checks: number
  average_response_time_ms: number | null
  p95_response_time_ms: number | null
  incidents_count: number
  total_downtime_seconds: number
}

/** The built-in protocols, or any protocol of the registry (`GET /api/protocols`). */
export type ServiceProtocol = 'http' | 'https' | 'tcp' | 'dns' | 'tls' | 'icmp' | (string & {})

export interface ProtocolConfig extends HttpOptions {
  host: string
  port?: number
  path?: string
  isApi?: boolean
  authType?: 'none' | 'basic' | 'bearer'
  credentialsSet?: boolean
  recordType?: string
  expected?: string
  server?: string
  warnDays?: number
  count?: number
  /** A registry protocol with secrets: whether they are stored (they are never shown). */
  secretsSet?: boolean
  /** A registry protocol's own options (README "Check protocols"). */
  [option: string]: unknown
}

export interface ServiceItem {
  id: string
  name: string
  protocol: ServiceProtocol
  status: MonitorState
  lastCheck: string | null
  checkInterval: number
  timeout: number
  enabled: boolean
  consecutiveFailures: number
  protocolConfig: ProtocolConfig
  createdAt: string
  locations?: string[]
  lastError?: LastError | null
  failingLocations?: string[]
  failureThreshold?: number
  quorumPercent?: number
  /** Response-time thresholds of any protocol, in ms. */
  degradedAboveMs?: number
  downAboveMs?: number
  tags?: string[]
}

export interface Incident {
  id: string
  title: string
  status: string
  severity: string
  monitorId: string | null
  monitorKind: string | null
  detectedAt: string
  resolvedAt: string | null
}

export interface TrendEntry {
  domainId: string
  avgResponseTime: number
  dataPoints: Array<{ timestamp: string; responseTime: number }>
}

export interface Location {
  code: string
  online: boolean
  configured: boolean
}

export interface Page<T> {
  data: T[]
  pagination: { page: number; limit: number; total: number; totalPages: number }
}

/** Down first, then unknown, then up: what needs a look comes first. */
export const STATE_ORDER: Record<string, number> = { down: 0, unknown: 1, up: 2 }

/** A disabled monitor shows as paused whatever its last state was. */
export const displayState = (status: string, enabled: boolean | undefined) => (enabled === false ? 'paused' : status)

export const RANGES = ['1h', '24h', '7d', '30d', '90d'] as const
export type Range = (typeof RANGES)[number]
export const RANGE_SECONDS: Record<Range, number> = {
  '1h': 3600,
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
  '90d': 90 * 86_400,
}
/** Raw results are kept 35 days: the latest checks of a 90-day range are those of the last 30. */
export const historyRange = (range: Range) => (range === '90d' ? '30d' : range)

/** Response time per location in buckets covering the whole range (`…/latency`). */
export interface LatencySeries {
  step: number
  locations: Record<string, Array<{ timestamp: string; responseTime: number; checks: number; failures: number }>>
}

export const PHASES: Array<{ key: keyof Phases; label: string; color: string }> = [
  { key: 'dnsMs', label: 'DNS', color: '#7048e8' },
  { key: 'connectMs', label: 'Connect', color: '#1c7ed6' },
  { key: 'tlsMs', label: 'TLS', color: '#0ca678' },
  { key: 'firstByteMs', label: 'First byte', color: '#f59f00' },
  { key: 'transferMs', label: 'Transfer', color: '#e8590c' },
  { key: 'queryMs', label: 'Query', color: '#c2255c' },
]

/** Events that change what a monitor screen shows. */
export const MONITOR_EVENTS = ['monitor.down', 'monitor.up', 'incident.opened', 'incident.updated', 'incident.resolved']
