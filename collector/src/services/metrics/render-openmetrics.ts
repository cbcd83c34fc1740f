import { setImmediate as nextTurn } from 'node:timers/promises'
import type { MetricsSnapshot } from './select-monitor-metrics.ts'

export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8'

/** More tag labels would lengthen every monitor's info series without bound; the first keys (sorted) win. */
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

const groupLabel = (group: string | null) => (group ? `,group="${escapeValue(group)}"` : '')

/** Six significant digits: what a dashboard shows, without the 17 digits of a float's full text. */
const ratio = (value: number) => String(Number(value.toPrecision(6)))
/** Milliseconds to seconds, to the microsecond. */
const seconds = (ms: number) => String(Number((ms / 1000).toFixed(6)))
/** Expiries are days away: whole seconds are exact enough. */
const secondsUntil = (at: number, now: number) => String(Math.round((at - now) / 1000))

type Monitor = MetricsSnapshot['monitors'][number]
type Device = MetricsSnapshot['devices'][number]
type Slo = MetricsSnapshot['slos'][number]

interface Family<T> {
  /** For an info family, without the `_info` its samples carry. */
  name: string
  type: 'info' | 'gauge' | 'counter'
  help: string
  /** The entity's samples, each ending in a newline; `key` is its identifying labels, escaped once. */
  samples: (entity: T, key: string, now: number) => string
}

/** Entities rendered between two turns of the event loop: a few milliseconds of work. */
const ENTITIES_PER_TURN = 250

/** Locations are a handful of names shared by every monitor: escaped once (the cap bounds an odd set). */
const locationLabels = new Map<string, string>()
const locationLabel = (location: string) => {
  let label = locationLabels.get(location)
  if (label === undefined) {
    label = `,location="${escapeValue(location)}"`
    if (locationLabels.size < 1000) locationLabels.set(location, label)
  }
  return label
}

const perLocation =
  (name: string, value: (location: Monitor['locations'][number]) => string | undefined) =>
  (monitor: Monitor, key: string) => {
    let text = ''
    for (const location of monitor.locations) {
      const sample = value(location)
      if (sample !== undefined) text += `${name}{${key}${locationLabel(location.location)}} ${sample}\n`
    }
    return text
  }

/**
 * The monitor's name, kind, group and tags are labels of its info series only; every other series
 * carries its `monitor_id` (and `location`), and queries join the labels in:
 * `guard_monitor_up * on(monitor_id) group_left(monitor) guard_monitor_info`. Repeating them on each
 * of a monitor's dozen series made the text at 10,000 monitors twice as long.
 */
const MONITOR_FAMILIES: Array<Family<Monitor>> = [
  {
    name: 'guard_monitor',
    type: 'info',
    help: 'One per monitor, value 1: its name, kind, group and tag_<key> labels, to join on monitor_id.',
    samples: (monitor, key) =>
      `guard_monitor_info{${key},monitor="${escapeValue(monitor.name)}",kind="${monitor.kind}"${groupLabel(monitor.group)}${tagLabels(monitor.tags)}} 1\n`,
  },
  {
    name: 'guard_monitor_up',
    type: 'gauge',
    help: 'Quorum outcome: 1 up, 0 down (what incidents follow).',
    samples: (monitor, key) => (monitor.up === null ? '' : `guard_monitor_up{${key}} ${monitor.up ? 1 : 0}\n`),
  },
  {
    name: 'guard_monitor_location_up',
    type: 'gauge',
    help: 'Last result of a location: 1 up, 0 down.',
    samples: perLocation('guard_monitor_location_up', (location) => (location.up ? '1' : '0')),
  },
  {
    name: 'guard_monitor_response_seconds',
    type: 'gauge',
    help: 'Mean response time of a location over the last 24 hours.',
    samples: perLocation('guard_monitor_response_seconds', (location) =>
      location.checks > 0 ? seconds(location.responseMsSum / location.checks) : undefined,
    ),
  },
  {
    name: 'guard_monitor_uptime_ratio',
    type: 'gauge',
    help: 'Share of a location’s checks up over the last 24 hours.',
    samples: perLocation('guard_monitor_uptime_ratio', (location) =>
      location.checks > 0 ? ratio(1 - location.failures / location.checks) : undefined,
    ),
  },
  {
    name: 'guard_monitor_certificate_expiry_seconds',
    type: 'gauge',
    help: 'Seconds until the TLS certificate expires (negative once expired).',
    samples: (monitor, key, now) =>
      monitor.certificateExpiresAt === null
        ? ''
        : `guard_monitor_certificate_expiry_seconds{${key}} ${secondsUntil(monitor.certificateExpiresAt, now)}\n`,
  },
  {
    name: 'guard_monitor_domain_expiry_seconds',
    type: 'gauge',
    help: 'Seconds until the domain registration expires (negative once expired).',
    samples: (monitor, key, now) =>
      monitor.domainExpiresAt === null
        ? ''
        : `guard_monitor_domain_expiry_seconds{${key}} ${secondsUntil(monitor.domainExpiresAt, now)}\n`,
  },
  {
    name: 'guard_monitor_incidents_open',
    type: 'gauge',
    help: 'Unresolved incidents of the monitor.',
    samples: (monitor, key) => `guard_monitor_incidents_open{${key}} ${monitor.openIncidents}\n`,
  },
  {
    name: 'guard_monitor_incidents',
    type: 'counter',
    help: 'Incidents ever opened on the monitor.',
    samples: (monitor, key) => `guard_monitor_incidents_total{${key}} ${monitor.incidents}\n`,
  },
]

const HEALTH_LEVEL: Record<string, number> = { healthy: 0, warning: 1, critical: 2 }

const DEVICE_FAMILIES: Array<Family<Device>> = [
  {
    name: 'guard_device',
    type: 'info',
    help: 'One per device, value 1: its name, group and tag_<key> labels, to join on device_id.',
    samples: (device, key) =>
      `guard_device_info{${key},device="${escapeValue(device.name)}"${groupLabel(device.group)}${tagLabels(device.tags)}} 1\n`,
  },
  {
    name: 'guard_device_up',
    type: 'gauge',
    help: '1 while the agent reports, 0 once offline.',
    samples: (device, key) => `guard_device_up{${key}} ${device.online ? 1 : 0}\n`,
  },
  {
    name: 'guard_device_health',
    type: 'gauge',
    help: 'Health level: 0 healthy, 1 warning, 2 critical.',
    samples: (device, key) => `guard_device_health{${key}} ${HEALTH_LEVEL[device.health] ?? 0}\n`,
  },
  {
    name: 'guard_device_last_seen_timestamp_seconds',
    type: 'gauge',
    help: 'When the agent last reported.',
    samples: (device, key) =>
      device.lastSeenAt === null
        ? ''
        : `guard_device_last_seen_timestamp_seconds{${key}} ${seconds(device.lastSeenAt)}\n`,
  },
]

/** SLOs are few: their series keep their name and subject. */
const SLO_FAMILIES: Array<Family<Slo>> = [
  {
    name: 'guard_slo_objective_ratio',
    type: 'gauge',
    help: 'The SLO’s objective, as a ratio (99.9% is 0.999).',
    samples: (slo, key) => `guard_slo_objective_ratio{${key}} ${slo.objectivePercent / 100}\n`,
  },
  {
    name: 'guard_slo_burn_rate',
    type: 'gauge',
    help: 'Burn rate of the firing burn alert, 0 while none fires.',
    samples: (slo, key) => `guard_slo_burn_rate{${key}} ${slo.burnRate ?? 0}\n`,
  },
]

const sloKey = (slo: Slo) =>
  `slo_id="${escapeValue(slo.id)}",slo="${escapeValue(slo.name)}",${
    slo.monitorId ? `monitor_id="${escapeValue(slo.monitorId)}"` : `group_id="${escapeValue(slo.groupId ?? '')}"`
  }`

/**
 * The snapshot as OpenMetrics text, family by family (OpenMetrics keeps a family's samples
 * together). At 10,000 monitors that is some 100,000 samples: the work yields to the event loop every
 * ENTITIES_PER_TURN entities so requests keep being served while a scrape renders.
 */
export async function renderOpenMetrics(snapshot: MetricsSnapshot, now: number): Promise<string> {
  const parts: string[] = []
  let text = ''
  let rendered = 0
  const section = async <T>(entities: T[], keyOf: (entity: T) => string, families: Array<Family<T>>) => {
    const keys = entities.map(keyOf)
    for (const family of families) {
      text += `# TYPE ${family.name} ${family.type}\n# HELP ${family.name} ${family.help}\n`
      for (let i = 0; i < entities.length; i++) {
        text += family.samples(entities[i]!, keys[i]!, now)
        if (++rendered % ENTITIES_PER_TURN === 0) {
          parts.push(text)
          text = ''
          await nextTurn()
        }
      }
    }
  }
  await section(snapshot.monitors, (monitor) => `monitor_id="${escapeValue(monitor.id)}"`, MONITOR_FAMILIES)
  await section(snapshot.devices, (device) => `device_id="${escapeValue(device.id)}"`, DEVICE_FAMILIES)
  await section(snapshot.slos, sloKey, SLO_FAMILIES)
  parts.push(text, '# EOF\n')
  return parts.join('')
}
