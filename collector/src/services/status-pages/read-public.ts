import { createHash } from 'node:crypto'
import { notFound, type Sql } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { type EncodedBody, encodeBody } from '../encoded-body.ts'
import { readGroupMembers, readOrganizationGroups } from '../groups/states.ts'
import { currentOrNextOccurrence } from '../maintenance-windows/schemas.ts'
import { ingestScope } from '../read-cache/invalidate.ts'
import { selectRows } from '../results/query.ts'
import { round2 } from '../results/window.ts'
import { readDailyUptime } from '../summaries/read.ts'
import { readComponents } from './find.ts'
import { readHeartbeatTimes } from './heartbeat-times.ts'
import type { Locale } from './i18n/locales.ts'
import { type IncidentSource, readPublicIncidents } from './public-incidents.ts'
import { RECENT_INCIDENT_DAYS } from './render-html.ts'
import { type PublicStatusPage, publicStatusPage, type StatusPageComponent } from './schemas.ts'

const publicStatusPageEnvelope = z.object({ success: z.literal(true), data: publicStatusPage })

type Status = PublicStatusPage['components'][number]['status']
const DAYS = 90

interface PageRow {
  id: string
  organization_id: string
  name: string
  slug: string
  description: string
  theme: PublicStatusPage['theme']
  accent_color: string | null
  logo_url: string | null
  links: PublicStatusPage['links']
  timezone: string
  locale: Locale
  automatic_incidents: IncidentSource['automaticIncidents']
}

export interface PublicPageAnswer {
  page: PublicStatusPage
  /** A strong validator of everything but `generatedAt`, so an unchanged page revalidates to 304. */
  etag: string
  /** The JSON answer as bytes (and compressed copies), serialized once per kept answer, not per request. */
  json: EncodedBody
  /** Management ids of `page.components`, in order: public addresses (badges) name a component by it. */
  componentIds: string[]
  /** What the page's incidents are read from: its history, permanent incident pages and feed read more of them. */
  source: IncidentSource
  /** Renderings of this answer (the HTML page, the summary), made and encoded once and kept with it. */
  rendered: Map<string, EncodedBody>
}

interface Entry {
  expires: number
  builtAt: number
  answer: Promise<PublicPageAnswer>
  /** Known once the page row is read: the organization whose writes and ingest make the entry stale. */
  organizationId?: string
  /** The organization's read-cache generations when read: of its writes, of its ingested results. */
  generations?: number[]
  /** The newest answer built for the slug, served while an ingest-stale one is rebuilt. */
  last?: PublicPageAnswer | undefined
}

const caches = new WeakMap<CollectorContext, Map<string, Entry>>()

/**
 * What visitors of a public page see. Kept in memory per slug until its organization changes (any
 * write or ingested batch bumps the organization's read-cache generations, on every replica) and at
 * most GUARD_STATUS_PAGE_CACHE_SECONDS, which bounds what no write announces (the clock moving the
 * windows, devices going offline). A page made stale by ingest or by time keeps being served while it
 * is rebuilt, so visitors never wait on the rebuild; one made stale by a write is not (it may have
 * gone private). A private or unknown slug is 404 and is not kept.
 */
export async function readPublicStatusPage(ctx: CollectorContext, slug: string): Promise<PublicPageAnswer> {
  const ttl = ctx.env.GUARD_STATUS_PAGE_CACHE_SECONDS * 1000
  if (ttl === 0) return buildPublicPage(ctx, slug, () => {})
  const cache = caches.get(ctx) ?? new Map<string, Entry>()
  caches.set(ctx, cache)
  const now = Date.now()
  const hit = cache.get(slug)
  const current = hit?.organizationId === undefined ? undefined : generationsOf(ctx, hit.organizationId)
  const written = current !== undefined && current[0] !== hit?.generations?.[0]
  // Ingest moves a page at most once per summary refresh: what it shows changes no faster.
  const ingested =
    current !== undefined &&
    current[1] !== hit?.generations?.[1] &&
    now - (hit?.builtAt ?? 0) >= ctx.env.GUARD_SUMMARY_REFRESH_MS
  if (hit && hit.expires > now && !ingested && !written) {
    return hit.last ?? hit.answer
  }
  const entry: Entry = {
    expires: now + ttl,
    builtAt: now,
    answer: Promise.resolve() as never,
    last: written ? undefined : hit?.last,
  }
  entry.answer = buildPublicPage(ctx, slug, (organizationId, generations) => {
    entry.organizationId = organizationId
    entry.generations = generations
  })
  cache.set(slug, entry)
  entry.answer.then(
    (built) => {
      entry.last = built
    },
    () => {
      if (cache.get(slug) === entry) cache.delete(slug)
    },
  )
  if (cache.size > 10_000) cache.delete(cache.keys().next().value as string)
  return entry.last ?? entry.answer
}

const generationsOf = (ctx: CollectorContext, organizationId: string) =>
  ctx.reads.generations([organizationId, ingestScope(organizationId)])

async function buildPublicPage(
  ctx: CollectorContext,
  slug: string,
  readingFor: (organizationId: string, generations: number[]) => void,
): Promise<PublicPageAnswer> {
  const { rows } = await ctx.sql.query<PageRow>(
    `SELECT id, organization_id, name, slug, description, theme, accent_color, logo_url, links, timezone,
            locale, automatic_incidents
       FROM monitoring.status_pages WHERE slug = $1 AND is_public`,
    [slug],
  )
  const page = rows[0]
  if (!page) throw notFound('Status page')
  // Taken before the rest is read: a write racing this read leaves the entry stale, never hides it.
  readingFor(page.organization_id, generationsOf(ctx, page.organization_id))
  const components = await readComponents(ctx.sql, page)
  const source = {
    organizationId: page.organization_id,
    components,
    automaticIncidents: page.automatic_incidents,
    locale: page.locale,
  }
  const monitors = components.filter((component) => component.kind !== 'device' && component.kind !== 'group')
  const monitorIds = monitors.map((component) => component.subjectId)
  const deviceIds = components.filter((component) => component.kind === 'device').map((c) => c.subjectId)
  const heartbeatIds = monitors.filter((component) => component.kind === 'heartbeat').map((c) => c.subjectId)
  // A heartbeat's "response time" is its run duration, at most one point per run: no latency chart.
  const probedIds = monitors.filter((component) => component.kind !== 'heartbeat').map((c) => c.subjectId)
  const groupIds = components.filter((component) => component.kind === 'group').map((c) => c.subjectId)
  const [states, devices, daily, deviceDays, latency, heartbeatTimes, incidents, maintenance, groups] =
    await Promise.all([
      monitorStates(ctx.sql, monitorIds),
      deviceStates(ctx.sql, page.organization_id, deviceIds),
      readDailyUptime(ctx.sql, monitorIds, DAYS),
      deviceDailyUptime(ctx.sql, page.organization_id, deviceIds),
      latencyByLocation(ctx, page.organization_id, probedIds),
      readHeartbeatTimes(ctx.sql, page.organization_id, heartbeatIds),
      currentIncidents(ctx.sql, source),
      pageMaintenance(ctx.sql, page.organization_id, components),
      groupStates(ctx.sql, page.organization_id, groupIds),
    ])
  const dates = lastDays()
  const publicComponents = components.map((component) => {
    if (component.kind === 'group') {
      const group = groups.get(component.subjectId)
      return {
        name: component.displayName,
        kind: component.kind,
        status: group?.status ?? ('unknown' as const),
        uptime90d: null,
        daily: [],
        locations: [],
        members: group?.members ?? [],
      }
    }
    if (component.kind === 'device') {
      const days = deviceDays.get(component.subjectId)
      return {
        name: component.displayName,
        kind: component.kind,
        status: devices.get(component.subjectId) ?? ('unknown' as const),
        uptime90d: days?.uptime ?? null,
        daily: dates.map((date) => ({ date, uptime: days?.daily.get(date) ?? null, checks: 0, failures: 0 })),
        locations: [],
      }
    }
    const state = states.get(component.subjectId)
    const days = daily.get(component.subjectId) ?? new Map()
    const series = latency.get(component.subjectId) ?? new Map<string, Array<{ t: string; avg: number }>>()
    const heartbeat = component.kind === 'heartbeat' ? heartbeatTimes.get(component.subjectId) : undefined
    const locations =
      component.kind === 'heartbeat' ? [] : [...new Set([...series.keys(), ...(state?.locations.keys() ?? [])])].sort()
    const checks = [...days.values()].reduce((sum, day) => sum + day.checks, 0)
    const failures = [...days.values()].reduce((sum, day) => sum + day.failures, 0)
    return {
      name: component.displayName,
      kind: component.kind,
      status: componentStatus(state),
      uptime90d: checks ? round2(((checks - failures) / checks) * 100) : null,
      daily: dates.map((date) => {
        const day = days.get(date)
        return day?.checks
          ? { date, uptime: round2(((day.checks - day.failures) / day.checks) * 100), ...day }
          : { date, uptime: null, checks: 0, failures: 0 }
      }),
      locations: locations.map((location) => ({
        location,
        status: state?.locations.get(location) ?? ('unknown' as const),
        points: series.get(location) ?? [],
      })),
      ...(component.kind === 'heartbeat' ? { heartbeat: heartbeat ?? { lastPingAt: null, nextExpectedAt: null } } : {}),
    }
  })
  const body = {
    name: page.name,
    slug: page.slug,
    description: page.description,
    theme: page.theme,
    accentColor: page.accent_color,
    logoUrl: page.logo_url,
    links: page.links,
    timezone: page.timezone,
    locale: page.locale,
    status: overall(publicComponents.map((component) => component.status)),
    components: publicComponents,
    incidents: {
      active: incidents.filter((incident) => incident.resolvedAt === null),
      recent: incidents.filter((incident) => incident.resolvedAt !== null),
    },
    maintenance,
  }
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`
  const answer: PublicStatusPage = { ...body, generatedAt: new Date().toISOString() }
  return {
    page: answer,
    etag,
    json: encodeBody(JSON.stringify(publicStatusPageEnvelope.parse({ success: true, data: answer }))),
    componentIds: components.map((component) => component.id),
    source,
    rendered: new Map(),
  }
}

type Member = NonNullable<PublicStatusPage['components'][number]['members']>[number]

/**
 * Each group's derived state (child groups included, as the groups screen shows it) and its direct
 * members and child groups. Member names are the monitors' own: a group on a page shows them all.
 */
async function groupStates(sql: Sql, organizationId: string, ids: string[]) {
  const byGroup = new Map<string, { status: Status; members: Member[] }>()
  if (ids.length === 0) return byGroup
  const [{ views }, members] = await Promise.all([
    readOrganizationGroups(sql, organizationId),
    Promise.all(ids.map((id) => readGroupMembers(sql, organizationId, id))),
  ])
  ids.forEach((id, index) => {
    const children = [...views.values()]
      .filter((view) => view.parentId === id)
      .map((view): Member => ({ name: view.name, kind: 'group', status: view.state }))
    byGroup.set(id, {
      status: views.get(id)?.state ?? 'unknown',
      members: [
        ...children,
        ...(members[index] ?? []).map(
          (member): Member => ({ name: member.name, kind: member.kind, status: asStatus(member.state) }),
        ),
      ],
    })
  })
  return byGroup
}

function lastDays(): string[] {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate())
  return Array.from({ length: DAYS }, (_, index) =>
    new Date(today - (DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  )
}

function overall(statuses: Status[]): PublicStatusPage['status'] {
  const known = statuses.filter((status) => status !== 'unknown')
  if (known.length === 0) return 'unknown'
  const down = known.filter((status) => status === 'down').length
  if (down === known.length) return 'major_outage'
  if (down > 0) return 'partial_outage'
  if (known.includes('degraded')) return 'degraded'
  return 'operational'
}

async function monitorStates(sql: Sql, ids: string[]) {
  const states = new Map<string, { status: Status; locations: Map<string, Status> }>()
  if (ids.length === 0) return states
  const [overallRows, locationRows] = await Promise.all([
    sql.query<{ monitor_id: string; status: string }>(
      'SELECT monitor_id, status FROM monitoring.monitor_state WHERE monitor_id = ANY($1)',
      [ids],
    ),
    sql.query<{ monitor_id: string; location: string; status: string }>(
      'SELECT monitor_id, location, status FROM monitoring.monitor_location_state WHERE monitor_id = ANY($1)',
      [ids],
    ),
  ])
  for (const row of overallRows.rows) states.set(row.monitor_id, { status: asStatus(row.status), locations: new Map() })
  for (const row of locationRows.rows) {
    const state = states.get(row.monitor_id) ?? { status: 'unknown' as const, locations: new Map() }
    state.locations.set(row.location, asStatus(row.status))
    states.set(row.monitor_id, state)
  }
  return states
}

/** Up overall while a probe location sees it down is shown as degraded: visitors there are affected. */
function componentStatus(state: { status: Status; locations: Map<string, Status> } | undefined): Status {
  if (!state) return 'unknown'
  if (state.status === 'up' && [...state.locations.values()].includes('down')) return 'degraded'
  return state.status
}

const asStatus = (status: string): Status =>
  status === 'up' || status === 'down' || status === 'degraded' ? status : 'unknown'

async function deviceStates(sql: Sql, organizationId: string, ids: string[]) {
  const states = new Map<string, Status>()
  if (ids.length === 0) return states
  const { rows } = await sql.query<{ id: string; is_online: boolean; health_status: string; last_seen: Date | null }>(
    'SELECT id, is_online, health_status, last_seen FROM monitoring.devices WHERE id = ANY($1) AND organization_id = $2',
    [ids, organizationId],
  )
  for (const row of rows) {
    states.set(
      row.id,
      row.last_seen === null
        ? 'unknown'
        : !row.is_online
          ? 'down'
          : row.health_status === 'healthy'
            ? 'up'
            : 'degraded',
    )
  }
  return states
}

async function latencyByLocation(ctx: CollectorContext, organizationId: string, ids: string[]) {
  const byMonitor = new Map<string, Map<string, Array<{ t: string; avg: number }>>>()
  if (ids.length === 0) return byMonitor
  const rows = await selectRows<{ monitor_id: string; location: string; t: string; avg: number }>(
    ctx.timeseries,
    `SELECT monitor_id, location, formatDateTime(toStartOfInterval(bucket, INTERVAL 10 MINUTE), '%Y-%m-%dT%H:%i:00Z') AS t,
            sum(rt_sum) / sum(checks) AS avg
       FROM check_results_1m
      WHERE organization_id = {org:String} AND monitor_id IN {ids:Array(String)}
        AND bucket >= now() - INTERVAL 24 HOUR
      GROUP BY monitor_id, location, t
      ORDER BY t`,
    { org: organizationId, ids },
  )
  for (const row of rows) {
    const locations = byMonitor.get(row.monitor_id) ?? new Map()
    const points = locations.get(row.location) ?? []
    points.push({ t: row.t, avg: round2(Number(row.avg)) })
    locations.set(row.location, points)
    byMonitor.set(row.monitor_id, locations)
  }
  return byMonitor
}

/** Tables of the incident engine (issue 12); a deployment without them has nothing to show. */
async function hasTable(sql: Sql, name: string): Promise<boolean> {
  const { rows } = await sql.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [name])
  return rows[0]?.present ?? false
}

/** Active incidents and those resolved in the last two weeks, as visitors read them. */
async function currentIncidents(sql: Sql, source: IncidentSource) {
  if (!(await hasTable(sql, 'monitoring.incidents'))) return []
  return readPublicIncidents(sql, source, { recentDays: RECENT_INCIDENT_DAYS })
}

/**
 * Ongoing and upcoming maintenance of the organization or of a monitor on the page; a recurring
 * window shows its ongoing or next occurrence.
 */
async function pageMaintenance(
  sql: Sql,
  organizationId: string,
  components: StatusPageComponent[],
): Promise<PublicStatusPage['maintenance']> {
  if (components.length === 0 || !(await hasTable(sql, 'monitoring.maintenance_windows'))) return []
  const ids = components.map((component) => component.subjectId)
  const { rows } = await sql.query<{
    title: string
    monitor_id: string | null
    starts_at: Date
    ends_at: Date
    recurrence: 'none' | 'daily' | 'weekly'
    until: Date | null
  }>(
    `SELECT title, monitor_id, starts_at, ends_at, recurrence, until FROM monitoring.maintenance_windows
      WHERE organization_id = $1 AND (monitor_id IS NULL OR monitor_id = ANY($2))
        AND (ends_at > now() OR (recurrence <> 'none' AND (until IS NULL OR until > now())))
      ORDER BY starts_at LIMIT 50`,
    [organizationId, ids],
  )
  const names = new Map(components.map((component) => [component.subjectId, component.displayName]))
  const now = Date.now()
  return rows
    .flatMap((row) => {
      const occurrence = currentOrNextOccurrence(
        {
          startsAt: row.starts_at.getTime(),
          endsAt: row.ends_at.getTime(),
          recurrence: row.recurrence,
          until: row.until?.getTime() ?? null,
        },
        now,
      )
      if (!occurrence) return []
      return [
        {
          title: row.title,
          startsAt: new Date(occurrence.startsAt).toISOString(),
          endsAt: new Date(occurrence.endsAt).toISOString(),
          recurrence: row.recurrence,
          status: occurrence.ongoing ? ('ongoing' as const) : ('upcoming' as const),
          components: row.monitor_id
            ? [names.get(row.monitor_id)!]
            : components.map((component) => component.displayName),
        },
      ]
    })
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt))
    .slice(0, 20)
}

/**
 * Per device and UTC day, the share of the day it was online, from its offline incidents (opened
 * by device.offline, resolved by device.online), counted from its enrolment; null before that and
 * for a device that never reported.
 */
async function deviceDailyUptime(sql: Sql, organizationId: string, ids: string[]) {
  const byDevice = new Map<string, { uptime: number | null; daily: Map<string, number> }>()
  if (ids.length === 0) return byDevice
  const days = lastDays()
  const from = Date.parse(`${days[0]}T00:00:00Z`)
  const [devices, incidents] = await Promise.all([
    sql.query<{ id: string; created_at: Date; last_seen: Date | null }>(
      'SELECT id, created_at, last_seen FROM monitoring.devices WHERE id = ANY($1) AND organization_id = $2',
      [ids, organizationId],
    ),
    hasTable(sql, 'monitoring.incidents').then(async (present) =>
      present
        ? (
            await sql.query<{ monitor_id: string; detected_at: Date; resolved_at: Date | null }>(
              `SELECT monitor_id, detected_at, resolved_at FROM monitoring.incidents
                WHERE organization_id = $1 AND monitor_id = ANY($2) AND cause = 'device-offline'
                  AND coalesce(resolved_at, now()) > $3`,
              [organizationId, ids, new Date(from)],
            )
          ).rows
        : [],
    ),
  ])
  const now = Date.now()
  for (const device of devices.rows) {
    if (device.last_seen === null) continue
    const offline = incidents
      .filter((incident) => incident.monitor_id === device.id)
      .map((incident) => [incident.detected_at.getTime(), incident.resolved_at?.getTime() ?? now] as const)
    const daily = new Map<string, number>()
    let observedTotal = 0
    let offlineTotal = 0
    for (const date of days) {
      const dayStart = Math.max(Date.parse(`${date}T00:00:00Z`), device.created_at.getTime())
      const dayEnd = Math.min(Date.parse(`${date}T00:00:00Z`) + 86_400_000, now)
      if (dayEnd <= dayStart) continue
      const down = offline.reduce(
        (sum, [start, end]) => sum + Math.max(0, Math.min(end, dayEnd) - Math.max(start, dayStart)),
        0,
      )
      observedTotal += dayEnd - dayStart
      offlineTotal += down
      daily.set(date, round2(100 - (down / (dayEnd - dayStart)) * 100))
    }
    byDevice.set(device.id, {
      uptime: observedTotal ? round2(100 - (offlineTotal / observedTotal) * 100) : null,
      daily,
    })
  }
  return byDevice
}
