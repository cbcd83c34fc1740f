import { createHash } from 'node:crypto'
import { notFound, type Sql } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { selectRows } from '../results/query.ts'
import { round2 } from '../results/window.ts'
import { readDailyUptime } from '../summaries/read.ts'
import { readComponents } from './find.ts'
import { type PublicStatusPage, publicStatusPage, type StatusPageComponent } from './schemas.ts'

const publicStatusPageEnvelope = z.object({ success: z.literal(true), data: publicStatusPage })

type Status = PublicStatusPage['components'][number]['status']
type Incident = PublicStatusPage['incidents']['active'][number]
const DAYS = 90
const RECENT_INCIDENT_DAYS = 14

interface PageRow {
  id: string
  organization_id: string
  name: string
  slug: string
  description: string
}

export interface PublicPageAnswer {
  page: PublicStatusPage
  /** A strong validator of everything but `generatedAt`, so an unchanged page revalidates to 304. */
  etag: string
  /** The JSON answer, serialized once per cache interval rather than once per request. */
  json: string
}

interface CachedPage {
  expires: number
  answer: Promise<PublicPageAnswer>
  /** The newest answer built, served while a newer one is being built. */
  last?: PublicPageAnswer | undefined
}

const caches = new WeakMap<CollectorContext, Map<string, CachedPage>>()

/**
 * What visitors of a public page see. Kept in memory for GUARD_STATUS_PAGE_CACHE_SECONDS per slug, so
 * a popular page costs one read per interval whatever its traffic; while it is rebuilt, visitors get
 * the previous answer rather than waiting on the rebuild. A private or unknown slug is 404.
 */
export async function readPublicStatusPage(ctx: CollectorContext, slug: string): Promise<PublicPageAnswer> {
  const ttl = ctx.env.GUARD_STATUS_PAGE_CACHE_SECONDS * 1000
  if (ttl === 0) return buildPublicPage(ctx, slug)
  const cache = caches.get(ctx) ?? new Map<string, CachedPage>()
  caches.set(ctx, cache)
  const now = Date.now()
  const hit = cache.get(slug)
  if (hit && hit.expires > now) return hit.last ?? hit.answer
  const answer = buildPublicPage(ctx, slug)
  const entry: CachedPage = { expires: now + ttl, answer, last: hit?.last }
  cache.set(slug, entry)
  answer.then(
    (built) => {
      entry.last = built
    },
    () => {
      if (cache.get(slug) === entry) cache.delete(slug)
    },
  )
  if (cache.size > 10_000) cache.delete(cache.keys().next().value as string)
  return entry.last ?? answer
}

async function buildPublicPage(ctx: CollectorContext, slug: string): Promise<PublicPageAnswer> {
  const { rows } = await ctx.sql.query<PageRow>(
    'SELECT id, organization_id, name, slug, description FROM monitoring.status_pages WHERE slug = $1 AND is_public',
    [slug],
  )
  const page = rows[0]
  if (!page) throw notFound('Status page')
  const components = await readComponents(ctx.sql, page)
  const monitors = components.filter((component) => component.kind !== 'device')
  const monitorIds = monitors.map((component) => component.subjectId)
  const [states, devices, daily, latency, incidents, maintenance] = await Promise.all([
    monitorStates(ctx.sql, monitorIds),
    deviceStates(
      ctx.sql,
      page.organization_id,
      components.filter((component) => component.kind === 'device').map((component) => component.subjectId),
    ),
    readDailyUptime(ctx.sql, monitorIds, DAYS),
    latencyByLocation(ctx, page.organization_id, monitorIds),
    pageIncidents(ctx.sql, page.organization_id, components),
    pageMaintenance(ctx.sql, page.organization_id, components),
  ])
  const publicComponents = components.map((component) => {
    if (component.kind === 'device') {
      return {
        name: component.displayName,
        kind: component.kind,
        status: devices.get(component.subjectId) ?? ('unknown' as const),
        uptime90d: null,
        daily: [],
        locations: [],
      }
    }
    const state = states.get(component.subjectId)
    const days = daily.get(component.subjectId) ?? new Map()
    const series = latency.get(component.subjectId) ?? new Map<string, Array<{ t: string; avg: number }>>()
    const locations = [...new Set([...series.keys(), ...(state?.locations.keys() ?? [])])].sort()
    const checks = [...days.values()].reduce((sum, day) => sum + day.checks, 0)
    const failures = [...days.values()].reduce((sum, day) => sum + day.failures, 0)
    return {
      name: component.displayName,
      kind: component.kind,
      status: componentStatus(state),
      uptime90d: checks ? round2(((checks - failures) / checks) * 100) : null,
      daily: lastDays().map((date) => {
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
    }
  })
  const body = {
    name: page.name,
    slug: page.slug,
    description: page.description,
    status: overall(publicComponents.map((component) => component.status)),
    components: publicComponents,
    incidents,
    maintenance,
  }
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`
  const answer: PublicStatusPage = { ...body, generatedAt: new Date().toISOString() }
  return { page: answer, etag, json: JSON.stringify(publicStatusPageEnvelope.parse({ success: true, data: answer })) }
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

interface IncidentRow {
  id: string
  title: string
  status: string
  severity: string
  impact: string
  monitor_id: string | null
  affected: string[]
  detected_at: Date
  resolved_at: Date | null
}

/**
 * Incidents touching the page's components: active ones and those resolved in the last two weeks,
 * with their public updates. Comments (internal or not) and every id stay out of the answer.
 */
async function pageIncidents(
  sql: Sql,
  organizationId: string,
  components: StatusPageComponent[],
): Promise<PublicStatusPage['incidents']> {
  const none = { active: [], recent: [] }
  if (components.length === 0 || !(await hasTable(sql, 'monitoring.incidents'))) return none
  const ids = components.map((component) => component.subjectId)
  const { rows } = await sql.query<IncidentRow>(
    `SELECT id, title, status, severity, impact, monitor_id,
            affected_domains || affected_services || affected_devices AS affected, detected_at, resolved_at
       FROM monitoring.incidents
      WHERE organization_id = $1
        AND (monitor_id = ANY($2) OR affected_domains && $2 OR affected_services && $2 OR affected_devices && $2)
        AND (resolved_at IS NULL OR resolved_at > now() - make_interval(days => $3))
      ORDER BY detected_at DESC LIMIT 50`,
    [organizationId, ids, RECENT_INCIDENT_DAYS],
  )
  if (rows.length === 0) return none
  const updates = await sql.query<{ incident_id: string; status: string; message: string; created_at: Date }>(
    `SELECT incident_id, status, message, created_at FROM monitoring.incident_updates
      WHERE incident_id = ANY($1) ORDER BY created_at DESC`,
    [rows.map((row) => row.id)],
  )
  const names = new Map(components.map((component) => [component.subjectId, component.displayName]))
  const toIncident = (row: IncidentRow): Incident => ({
    title: row.title,
    status: row.status,
    severity: row.severity,
    impact: row.impact,
    startedAt: row.detected_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    components: [
      ...new Set([row.monitor_id, ...row.affected].flatMap((id) => (id && names.has(id) ? [names.get(id)!] : []))),
    ],
    updates: updates.rows
      .filter((update) => update.incident_id === row.id)
      .map((update) => ({
        status: update.status,
        message: update.message,
        createdAt: update.created_at.toISOString(),
      })),
  })
  return {
    active: rows.filter((row) => row.resolved_at === null).map(toIncident),
    recent: rows.filter((row) => row.resolved_at !== null).map(toIncident),
  }
}

/** Ongoing and upcoming maintenance of the organization or of a monitor on the page. */
async function pageMaintenance(
  sql: Sql,
  organizationId: string,
  components: StatusPageComponent[],
): Promise<PublicStatusPage['maintenance']> {
  if (components.length === 0 || !(await hasTable(sql, 'monitoring.maintenance_windows'))) return []
  const ids = components.map((component) => component.subjectId)
  const { rows } = await sql.query<{ title: string; monitor_id: string | null; starts_at: Date; ends_at: Date }>(
    `SELECT title, monitor_id, starts_at, ends_at FROM monitoring.maintenance_windows
      WHERE organization_id = $1 AND (monitor_id IS NULL OR monitor_id = ANY($2)) AND ends_at > now()
      ORDER BY starts_at LIMIT 20`,
    [organizationId, ids],
  )
  const names = new Map(components.map((component) => [component.subjectId, component.displayName]))
  return rows.map((row) => ({
    title: row.title,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    components: row.monitor_id ? [names.get(row.monitor_id)!] : components.map((component) => component.displayName),
  }))
}
