import type { Sql } from '@guard/shared'
import { registrableDomainOfUrl } from '../domains/registration/registrable-domain.ts'

/**
 * What Guard measures, as the PostgreSQL state holds it: no ClickHouse read, so a scrape costs
 * O(monitors + devices) whatever the check rate. Each entity carries its organization so the OTLP
 * exporter, which reads every organization at once, can tell them apart.
 */
export interface MetricsSnapshot {
  monitors: Array<{
    organizationId: string
    id: string
    name: string
    kind: string
    /** Name of the monitor's group; null when it has none. */
    group: string | null
    tags: string[]
    /** The quorum's outcome; null until the monitor has one. */
    up: boolean | null
    certificateExpiresAt: number | null
    domainExpiresAt: number | null
    openIncidents: number
    incidents: number
    locations: Array<{
      location: string
      up: boolean
      /** Over the last 24 hours (monitor_summary), 0 without a check in that window. */
      checks: number
      failures: number
      responseMsSum: number
    }>
  }>
  devices: Array<{
    organizationId: string
    id: string
    name: string
    group: string | null
    tags: string[]
    online: boolean
    health: string
    lastSeenAt: number | null
  }>
  slos: Array<{
    organizationId: string
    id: string
    name: string
    monitorId: string | null
    groupId: string | null
    objectivePercent: number
    /** Of the burn alert firing since the burn job last looked; null while none fires. */
    burnRate: number | null
  }>
}

type MonitorRow = [string, string, string, string, string | null, string[], string | null, string | null, string | null]
/** A location's state and, when it has one, its 24-hour summary. */
type LocationRow = [string, string, string, number | null, number | null, number | null]
type IncidentRow = [string, number, number]
type DeviceRow = [string, string, string, string | null, string[], boolean, string, number | null]
type SloRow = [string, string, string, string | null, string | null, number, string | null]

/**
 * One statement, one JSON value per table: each part is a flat scan of the organization's rows (by
 * the organization indexes), joined in memory, rather than a correlated subquery per monitor. A
 * location's summary rides on its state row, which spares 30,000 JSON arrays at 10,000
 * monitors.
 */
const SNAPSHOT_SQL = (where: (alias: string) => string) => `
  SELECT
    (SELECT json_agg(json_build_array(m.organization_id, m.id, m.name, m.kind, g.name, m.tags, s.status,
                                      s.certificate ->> 'expiresAt', m.target ->> 'url'))
       FROM monitoring.monitors m LEFT JOIN monitoring.monitor_state s ON s.monitor_id = m.id
                                  LEFT JOIN monitoring.monitor_groups g ON g.id = m.group_id
      WHERE ${where('m')}) AS monitors,
    (SELECT json_agg(json_build_array(l.monitor_id, l.location, l.status, u.checks, u.failures, u.rt_sum))
       FROM monitoring.monitor_location_state l JOIN monitoring.monitors m ON m.id = l.monitor_id
            LEFT JOIN monitoring.monitor_summary u ON u.monitor_id = l.monitor_id AND u.location = l.location
      WHERE ${where('m')}) AS locations,
    (SELECT json_agg(json_build_array(monitor_id, open, total)) FROM (
       SELECT i.monitor_id, count(*) FILTER (WHERE i.resolved_at IS NULL) AS open, count(*) AS total
         FROM monitoring.incidents i WHERE ${where('i')} AND i.monitor_id IS NOT NULL GROUP BY i.monitor_id) c) AS incidents,
    (SELECT json_agg(json_build_array(d.organization_id, d.id, d.name, g.name, d.tags, d.is_online, d.health_status,
                                      (extract(epoch FROM d.last_seen) * 1000)::float8))
       FROM monitoring.devices d LEFT JOIN monitoring.monitor_groups g ON g.id = d.group_id WHERE ${where('d')}) AS devices,
    (SELECT json_agg(json_build_array(o.organization_id, o.id, o.name, o.monitor_id, o.group_id, o.objective,
                                      o.burning ->> 'burnRate'))
       FROM monitoring.slos o WHERE ${where('o')}) AS slos`

const ONE_ORGANIZATION = SNAPSHOT_SQL((alias) => `${alias}.organization_id = $1`)
const EVERY_ORGANIZATION = SNAPSHOT_SQL(() => 'true')

const epochOf = (text: string | null) => {
  const at = text === null ? Number.NaN : Date.parse(text)
  return Number.isFinite(at) ? at : null
}

/** The metrics of one organization's monitors, devices and SLOs, or of every organization's (`null`). */
export async function selectMonitorMetrics(sql: Sql, organizationId: string | null): Promise<MetricsSnapshot> {
  const { rows } = await sql.query<{
    monitors: MonitorRow[] | null
    locations: LocationRow[] | null
    incidents: IncidentRow[] | null
    devices: DeviceRow[] | null
    slos: SloRow[] | null
  }>(organizationId === null ? EVERY_ORGANIZATION : ONE_ORGANIZATION, organizationId === null ? [] : [organizationId])
  const row = rows[0]
  const locations = new Map<string, MetricsSnapshot['monitors'][number]['locations']>()
  for (const [monitorId, location, status, checks, failures, responseMsSum] of row?.locations ?? []) {
    const list = locations.get(monitorId) ?? []
    list.push({
      location,
      up: status === 'up',
      checks: Number(checks ?? 0),
      failures: Number(failures ?? 0),
      responseMsSum: Number(responseMsSum ?? 0),
    })
    locations.set(monitorId, list)
  }
  const incidents = new Map((row?.incidents ?? []).map(([id, open, total]) => [id, { open, total }]))
  const domains = new Map<string, string>()
  for (const monitor of row?.monitors ?? []) {
    const domain = monitor[8] ? registrableDomainOfUrl(monitor[8]) : undefined
    if (domain) domains.set(monitor[1], domain)
  }
  const expiries = await registrationExpiries(sql, [...new Set(domains.values())])
  return {
    monitors: (row?.monitors ?? []).map(([org, id, name, kind, group, tags, status, certificateExpiresAt]) => {
      const domain = domains.get(id)
      return {
        organizationId: org,
        id,
        name,
        kind,
        group,
        tags,
        up: status === null ? null : status === 'up',
        certificateExpiresAt: epochOf(certificateExpiresAt),
        domainExpiresAt: domain ? (expiries.get(domain) ?? null) : null,
        openIncidents: Number(incidents.get(id)?.open ?? 0),
        incidents: Number(incidents.get(id)?.total ?? 0),
        locations: locations.get(id) ?? [],
      }
    }),
    devices: (row?.devices ?? []).map(([org, id, name, group, tags, online, health, lastSeen]) => ({
      organizationId: org,
      id,
      name,
      group,
      tags,
      online,
      health,
      lastSeenAt: lastSeen === null ? null : Number(lastSeen),
    })),
    slos: (row?.slos ?? []).map(([org, id, name, monitorId, groupId, objective, burnRate]) => ({
      organizationId: org,
      id,
      name,
      monitorId,
      groupId,
      objectivePercent: Number(objective),
      burnRate: burnRate === null ? null : Number(burnRate),
    })),
  }
}

/** Registrations are shared by every organization (one row per registrable domain), so read by name. */
async function registrationExpiries(sql: Sql, domains: string[]): Promise<Map<string, number>> {
  if (domains.length === 0) return new Map()
  const { rows } = await sql.query<{ domain: string; expires_at: number }>(
    `SELECT domain, (extract(epoch FROM expires_at) * 1000)::float8 AS expires_at
       FROM monitoring.domain_registrations WHERE domain = ANY($1) AND expires_at IS NOT NULL`,
    [domains],
  )
  return new Map(rows.map((row) => [row.domain, Number(row.expires_at)]))
}
