import type { MetricsSnapshot } from './select-monitor-metrics.ts'

export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8'

/** More tag labels would multiply the series' size for every monitor; the first keys (sorted) win. */
export const MAX_TAG_LABELS = 10
const MAX_LABEL_NAME = 64

const escapeValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

/** `Env-Name` → `tag_env_name`: Prometheus label names are `[a-zA-Z_][a-zA-Z0-9_]*`. */
export const tagLabelName = (key: string) =>
  `tag_${key.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, MAX_LABEL_NAME)

/**
 * `key:value` tags as `tag_<key>` = `value` labels, a bare `key` as `tag_<key>` = `true`. Two tags whose
 * keys sanitize alike (`env:a`, `env:b`, or `a-b` and `a_b`) share one label, their values joined by `,`.
 */
export function tagPairs(tags: readonly string[]): Array<[string, string]> {
  const values = new Map<string, string[]>()
  for (const tag of tags) {
    const colon = tag.indexOf(':')
    const name = tagLabelName(colon === -1 ? tag : tag.slice(0, colon))
    values.set(name, [...(values.get(name) ?? []), colon === -1 ? 'true' : tag.slice(colon + 1)])
  }
  return [...values]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_TAG_LABELS)
    .map(([name, list]) => [name, [...new Set(list)].sort().join(',')])
}

const tagLabels = (tags: readonly string[]) =>
  tagPairs(tags)
    .map(([name, value]) => `,${name}="${escapeValue(value)}"`)
    .join('')

const seconds = (ms: number) => String(ms / 1000)

interface Family {
  name: string
  type: 'gauge' | 'counter'
  help: string
  lines: string[]
}

/**
 * The snapshot as OpenMetrics text. Label sets are built once per monitor and reused by each of its
 * series: at 10,000 monitors the text is megabytes, so nothing is escaped twice.
 */
export function renderOpenMetrics(snapshot: MetricsSnapshot, now: number): string {
  const family = (name: string, type: Family['type'], help: string): Family => ({ name, type, help, lines: [] })
  const up = family('guard_monitor_up', 'gauge', 'Quorum outcome: 1 up, 0 down (what incidents follow).')
  const locationUp = family('guard_monitor_location_up', 'gauge', 'Last result of a location: 1 up, 0 down.')
  const response = family(
    'guard_monitor_response_seconds',
    'gauge',
    'Mean response time of a location over the last 24 hours.',
  )
  const uptime = family(
    'guard_monitor_uptime_ratio',
    'gauge',
    'Share of a location’s checks up over the last 24 hours.',
  )
  const certificate = family(
    'guard_monitor_certificate_expiry_seconds',
    'gauge',
    'Seconds until the TLS certificate expires (negative once expired).',
  )
  const domain = family(
    'guard_monitor_domain_expiry_seconds',
    'gauge',
    'Seconds until the domain registration expires (negative once expired).',
  )
  const openIncidents = family('guard_monitor_incidents_open', 'gauge', 'Unresolved incidents of the monitor.')
  const incidents = family('guard_monitor_incidents', 'counter', 'Incidents ever opened on the monitor.')
  for (const monitor of snapshot.monitors) {
    const labels = `monitor_id="${escapeValue(monitor.id)}",monitor="${escapeValue(monitor.name)}",kind="${monitor.kind}"${tagLabels(monitor.tags)}`
    if (monitor.up !== null) up.lines.push(`guard_monitor_up{${labels}} ${monitor.up ? 1 : 0}`)
    for (const location of monitor.locations) {
      const at = `{${labels},location="${escapeValue(location.location)}"}`
      locationUp.lines.push(`guard_monitor_location_up${at} ${location.up ? 1 : 0}`)
      if (location.checks > 0) {
        response.lines.push(`guard_monitor_response_seconds${at} ${seconds(location.responseMsSum / location.checks)}`)
        uptime.lines.push(`guard_monitor_uptime_ratio${at} ${1 - location.failures / location.checks}`)
      }
    }
    if (monitor.certificateExpiresAt !== null) {
      certificate.lines.push(
        `guard_monitor_certificate_expiry_seconds{${labels}} ${seconds(monitor.certificateExpiresAt - now)}`,
      )
    }
    if (monitor.domainExpiresAt !== null) {
      domain.lines.push(`guard_monitor_domain_expiry_seconds{${labels}} ${seconds(monitor.domainExpiresAt - now)}`)
    }
    openIncidents.lines.push(`guard_monitor_incidents_open{${labels}} ${monitor.openIncidents}`)
    incidents.lines.push(`guard_monitor_incidents_total{${labels}} ${monitor.incidents}`)
  }
  const deviceUp = family('guard_device_up', 'gauge', '1 while the agent reports, 0 once offline.')
  const deviceHealth = family('guard_device_health', 'gauge', 'Health level: 0 healthy, 1 warning, 2 critical.')
  const deviceSeen = family('guard_device_last_seen_timestamp_seconds', 'gauge', 'When the agent last reported.')
  const healthLevel: Record<string, number> = { healthy: 0, warning: 1, critical: 2 }
  for (const device of snapshot.devices) {
    const labels = `{device_id="${escapeValue(device.id)}",device="${escapeValue(device.name)}"${tagLabels(device.tags)}}`
    deviceUp.lines.push(`guard_device_up${labels} ${device.online ? 1 : 0}`)
    deviceHealth.lines.push(`guard_device_health${labels} ${healthLevel[device.health] ?? 0}`)
    if (device.lastSeenAt !== null)
      deviceSeen.lines.push(`guard_device_last_seen_timestamp_seconds${labels} ${seconds(device.lastSeenAt)}`)
  }
  const objective = family('guard_slo_objective_ratio', 'gauge', 'The SLO’s objective, as a ratio (99.9% is 0.999).')
  const burnRate = family('guard_slo_burn_rate', 'gauge', 'Burn rate of the firing burn alert, 0 while none fires.')
  for (const slo of snapshot.slos) {
    const subject = slo.monitorId
      ? `monitor_id="${escapeValue(slo.monitorId)}"`
      : `group_id="${escapeValue(slo.groupId ?? '')}"`
    const labels = `{slo_id="${escapeValue(slo.id)}",slo="${escapeValue(slo.name)}",${subject}}`
    objective.lines.push(`guard_slo_objective_ratio${labels} ${slo.objectivePercent / 100}`)
    burnRate.lines.push(`guard_slo_burn_rate${labels} ${slo.burnRate ?? 0}`)
  }
  const families = [
    up,
    locationUp,
    response,
    uptime,
    certificate,
    domain,
    openIncidents,
    incidents,
    deviceUp,
    deviceHealth,
    deviceSeen,
    objective,
    burnRate,
  ]
  const parts: string[] = []
  for (const { name, type, help, lines } of families) {
    parts.push(`# TYPE ${name} ${type}\n# HELP ${name} ${help}\n`)
    if (lines.length > 0) parts.push(`${lines.join('\n')}\n`)
  }
  parts.push('# EOF\n')
  return parts.join('')
}
