import { useEffect } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { latencies, useRecentChecks } from '../components/heartbeat-bar.tsx'
import { Sparkline } from '../components/sparkline.tsx'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { formatMs, formatPercent, Time } from '../components/time.tsx'
import { usePolling, useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import {
  type DomainItem,
  displayState,
  type Incident,
  type LastError,
  type Page,
  type ServiceItem,
} from '../monitors.ts'
import { useOrg } from '../org.ts'
import { type Heartbeat as HeartbeatItem, scheduleText } from './heartbeat-parts.tsx'

interface DashboardStats {
  domains: { total: number; up: number; down: number; uptime: number | null }
  devices: { total: number; online: number; offline: number }
  services: { total: number; up: number; down: number }
  heartbeats: { total: number; up: number; down: number }
  incidents: { active: number; critical: number }
}

interface Activity {
  id: string
  type: string
  time: string
  subject: { kind: string; id: string | null; name: string | null }
  message: string
  link: string | null
}

interface Row {
  id: string
  kind: 'domain' | 'service' | 'heartbeat'
  name: string
  detail: string
  /** What the state machine says, `paused` for a disabled monitor. */
  status: string
  responseTime: number | null
  lastError: LastError | null | undefined
  failingLocations: string[]
}

/** The states the overview counts, in the order it shows them. */
const COUNTED = [
  { state: 'up', label: 'Up' },
  { state: 'down', label: 'Down' },
  { state: 'degraded', label: 'Degraded' },
  { state: 'paused', label: 'Paused' },
  { state: 'pending', label: 'Pending' },
] as const
type Counted = (typeof COUNTED)[number]['state']

/** What needs a look first: down, degraded, waiting for a verdict, up, paused. */
const ORDER: Record<string, number> = { down: 0, degraded: 1, pending: 2, unknown: 2, up: 3, paused: 4 }

/** Monitors the overview reads the last 30 checks of, for their sparklines. */
const SHOWN = 12
const SPARK_CHECKS = 30

function Stat({ label, value, sub, href }: { label: string; value: string | number; sub?: string; href?: string }) {
  const body = (
    <>
      <span class="stat-label">{label}</span>
      <span class="stat-value">{value}</span>
      {sub ? <span class="stat-sub">{sub}</span> : null}
    </>
  )
  return href ? (
    <a class="card stat" href={href} style={{ textDecoration: 'none', color: 'inherit' }}>
      {body}
    </a>
  ) : (
    <div class="card stat">{body}</div>
  )
}

const ACTIVITY_TONE: Record<string, string> = {
  'monitor.down': 'down',
  'monitor.up': 'up',
  'incident.opened': 'down',
  'incident.resolved': 'up',
  'device.offline': 'down',
  'device.online': 'up',
}

/**
 * A monitor's state at a glance: paused when disabled, degraded while its newest check was slow,
 * pending until the state machine has a verdict (a new monitor before its first check).
 */
function stateOf(row: Row, latest: string | undefined): Counted {
  if (row.status === 'paused') return 'paused'
  if (row.status === 'down') return 'down'
  if (row.status === 'up') return latest === 'degraded' ? 'degraded' : 'up'
  return 'pending'
}

/** The first screen: how many monitors are in each state, what is down now, open incidents, then the rest. */
export default function Overview() {
  const { current } = useOrg()
  const stats = useResource(
    () => api.get<Envelope<DashboardStats>>('/api/dashboard/stats').then((body) => body.data),
    [current.id],
  )
  const activity = useResource(
    () => api.get<Envelope<Activity[]>>('/api/dashboard/recent-activity', { limit: 10 }).then((body) => body.data),
    [current.id],
  )
  const incidents = useResource(
    () =>
      api
        .get<Envelope<Incident[]>>('/api/incidents', { limit: 50 })
        .then((body) => body.data.filter((incident) => incident.status !== 'resolved')),
    [current.id],
  )
  const monitors = useResource(async () => {
    const [domains, services, heartbeats] = await Promise.all([
      api.get<Page<DomainItem>>('/api/domains', { limit: 200 }),
      api.get<Envelope<ServiceItem[]>>('/api/services', { organizationId: current.id }),
      api.get<Envelope<HeartbeatItem[]>>('/api/heartbeats', { organizationId: current.id }),
    ])
    const rows: Row[] = [
      ...domains.data.map((domain) => ({
        id: domain.id,
        kind: 'domain' as const,
        name: domain.name,
        detail: domain.url,
        status: displayState(domain.status, domain.enabled),
        responseTime: domain.responseTime,
        lastError: domain.lastError,
        failingLocations: domain.failingLocations ?? [],
      })),
      ...services.data.map((service) => ({
        id: service.id,
        kind: 'service' as const,
        name: service.name,
        detail: `${service.protocol}://${service.protocolConfig.host}${service.protocolConfig.port ? `:${service.protocolConfig.port}` : ''}`,
        status: displayState(service.status, service.enabled),
        responseTime: null,
        lastError: service.lastError,
        failingLocations: service.failingLocations ?? [],
      })),
      ...heartbeats.data.map((heartbeat) => ({
        id: heartbeat.id,
        kind: 'heartbeat' as const,
        name: heartbeat.name,
        detail: scheduleText(heartbeat),
        status: displayState(heartbeat.status, heartbeat.enabled),
        responseTime: null,
        lastError: heartbeat.lastError,
        failingLocations: [],
      })),
    ]
    // Counts cover the first 200 domains the list answers; more are a page of the Domains screen away.
    return { rows, moreDomains: Math.max(domains.pagination.total - domains.data.length, 0) }
  }, [current.id])
  const rows = monitors.data?.rows
  // The newest check of every monitor (is it degraded?), the last 30 of those listed (sparklines):
  // two batch reads, however many monitors there are.
  const latest = useRecentChecks(rows?.map((row) => row.id) ?? [], 1, current.id)
  const states = new Map(
    (rows ?? []).map((row) => [row.id, stateOf(row, latest.data?.get(row.id)?.checks.at(-1)?.status)] as const),
  )
  const sorted = [...(rows ?? [])].sort(
    (a, b) =>
      (ORDER[states.get(a.id) ?? 'pending'] ?? 2) - (ORDER[states.get(b.id) ?? 'pending'] ?? 2) ||
      a.name.localeCompare(b.name),
  )
  const shown = sorted.slice(0, SHOWN)
  const recent = useRecentChecks(
    shown.map((row) => row.id),
    SPARK_CHECKS,
    current.id,
  )

  useLive(['*'], () => {
    stats.reload()
    activity.reload()
    monitors.reload()
    incidents.reload()
    latest.reload()
    recent.reload()
  })
  // New checks arrive without an event; the sparklines and the degraded count follow them.
  usePolling(() => {
    latest.reload()
    recent.reload()
  }, 30)

  const ready = stats.data !== undefined && monitors.data !== undefined && activity.data !== undefined
  useEffect(() => {
    // What bench/console measures: the first moment the overview shows its data.
    if (ready && performance.getEntriesByName('guard:overview-ready').length === 0) {
      performance.mark('guard:overview-ready')
    }
  }, [ready])

  const counts = Object.fromEntries(COUNTED.map(({ state }) => [state, 0])) as Record<Counted, number>
  for (const state of states.values()) counts[state] += 1
  const down = sorted.filter((row) => states.get(row.id) === 'down')
  const data = stats.data
  return (
    <section aria-labelledby="overview-title">
      <div class="page-head">
        <h1 id="overview-title">Overview</h1>
        <div class="actions">
          <a class="button" href="/domains/new">
            Add a domain
          </a>
        </div>
      </div>
      <ErrorText error={monitors.error} retry={monitors.reload} />
      <ul class="state-counts" aria-label="Monitors by state" aria-busy={rows === undefined}>
        {COUNTED.map(({ state, label }) => (
          <li
            key={state}
            class={`card state-count state-count-${state}${counts[state] > 0 ? ' state-count-some' : ''}`}
          >
            <span class="state-count-value">{rows === undefined ? '…' : counts[state]}</span>
            <StateDot state={state} label={label} />
          </li>
        ))}
      </ul>
      {monitors.data && monitors.data.moreDomains > 0 ? (
        <p class="muted">
          Counted: the first 200 domains, every service and every heartbeat; {monitors.data.moreDomains} more domains
          are on the <a href="/domains">Domains</a> screen.
        </p>
      ) : null}
      <div class="grid-2 overview-glance">
        <div>
          <h2 id="down-now-title">Down now</h2>
          {rows === undefined ? (
            monitors.error ? null : (
              <Loading lines={2} />
            )
          ) : down.length === 0 ? (
            <p class="card all-clear">
              <StateDot state="up" label={rows.length === 0 ? 'Nothing is monitored yet' : 'Nothing is down'} />
            </p>
          ) : (
            <ul class="card activity down-now" aria-labelledby="down-now-title">
              {down.map((row) => (
                <li key={`${row.kind}-${row.id}`}>
                  <StateDot state="down" label="" />
                  <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    <a href={`/${row.kind}s/${row.id}`}>{row.name}</a>
                    <br />
                    <small class="muted">
                      {row.lastError?.message ?? row.detail}
                      {row.failingLocations.length ? ` (at ${row.failingLocations.join(', ')})` : ''}
                    </small>
                  </span>
                  {row.lastError ? <Time value={row.lastError.at} /> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h2 id="open-incidents-title">Open incidents</h2>
          <ErrorText error={incidents.error} retry={incidents.reload} />
          {incidents.data === undefined ? (
            incidents.error ? null : (
              <Loading lines={2} />
            )
          ) : incidents.data.length === 0 ? (
            <p class="card all-clear">
              <StateDot state="up" label="No open incident" />
            </p>
          ) : (
            <ul class="card activity" aria-labelledby="open-incidents-title">
              {incidents.data.slice(0, 5).map((incident) => (
                <li key={incident.id}>
                  <span class={`badge badge-${incident.severity}`}>{incident.severity}</span>
                  <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    <a href={`/incidents/${incident.id}`}>{incident.title}</a>
                    <br />
                    <small class="muted">{incident.status}</small>
                  </span>
                  <Time value={incident.detectedAt} />
                </li>
              ))}
              {incidents.data.length > 5 ? (
                <li>
                  <a href="/incidents">All {incidents.data.length} open incidents</a>
                </li>
              ) : null}
            </ul>
          )}
        </div>
      </div>
      <ErrorText error={stats.error} retry={stats.reload} />
      <div class="cards" aria-busy={stats.loading && !data}>
        <Stat
          label="Domains"
          value={data ? `${data.domains.up}/${data.domains.total} up` : '…'}
          sub={data ? `${data.domains.down} down · ${formatPercent(data.domains.uptime)} uptime (24 h)` : ' '}
          href="/domains"
        />
        <Stat
          label="Services"
          value={data ? `${data.services.up}/${data.services.total} up` : '…'}
          sub={data ? `${data.services.down} down` : ' '}
          href="/services"
        />
        <Stat
          label="Heartbeats"
          value={data ? `${data.heartbeats.up}/${data.heartbeats.total} up` : '…'}
          sub={data ? `${data.heartbeats.down} down` : ' '}
          href="/heartbeats"
        />
        <Stat
          label="Devices"
          value={data ? `${data.devices.online}/${data.devices.total} online` : '…'}
          sub={data ? `${data.devices.offline} offline` : ' '}
          href="/devices"
        />
        <Stat
          label="Incidents"
          value={data ? `${data.incidents.active} active` : '…'}
          sub={data ? `${data.incidents.critical} critical` : ' '}
          href="/incidents"
        />
      </div>
      <div class="grid-2">
        <div>
          <h2>Monitors</h2>
          {rows === undefined ? (
            monitors.error ? null : (
              <Loading lines={5} />
            )
          ) : rows.length === 0 ? (
            <Empty title="Nothing is monitored yet">
              <a href="/domains/new">Add a domain</a> or <a href="/services/new">a service</a> to start.
            </Empty>
          ) : (
            <ul class="card activity monitor-rows" aria-label="Monitors, down first">
              {shown.map((row) => {
                const state = states.get(row.id) ?? 'pending'
                const checks = recent.data?.get(row.id)?.checks
                // A heartbeat's run without a /start ping has no duration: its 0 ms says nothing.
                const answered =
                  checks?.filter(
                    (check) => check.status !== 'down' && (row.kind !== 'heartbeat' || check.responseTime > 0),
                  ) ?? []
                const newest = answered.at(-1)?.responseTime ?? row.responseTime
                return (
                  <li key={`${row.kind}-${row.id}`}>
                    <StateDot state={state} />
                    <span style={{ minWidth: 0, flex: '1 1 auto' }}>
                      <a href={`/${row.kind}s/${row.id}`}>{row.name}</a>
                      <br />
                      <small class="muted" style={{ overflowWrap: 'anywhere' }}>
                        {(state === 'down' ? row.lastError?.message : undefined) ?? row.detail}
                      </small>
                    </span>
                    <Sparkline
                      label={
                        row.kind === 'heartbeat'
                          ? `Run time of ${row.name} over its last ${checks?.length ?? 0} runs`
                          : `Response time of ${row.name} over its last ${checks?.length ?? 0} checks`
                      }
                      values={latencies(checks)}
                      width={96}
                      height={24}
                    />
                    <span class="muted num monitor-latency">
                      {state === 'down' || newest === null || newest === undefined ? '—' : formatMs(newest)}
                    </span>
                  </li>
                )
              })}
              {sorted.length > SHOWN ? (
                <li>
                  <span class="muted">
                    {sorted.length - SHOWN} more on <a href="/domains">Domains</a>, <a href="/services">Services</a> and{' '}
                    <a href="/heartbeats">Heartbeats</a>
                  </span>
                </li>
              ) : null}
            </ul>
          )}
        </div>
        <div>
          <h2>Recent activity</h2>
          <ErrorText error={activity.error} retry={activity.reload} />
          {activity.data === undefined ? (
            activity.error ? null : (
              <Loading lines={5} />
            )
          ) : activity.data.length === 0 ? (
            <Empty title="No activity yet">State changes and incidents appear here as they happen.</Empty>
          ) : (
            <ul class="card activity" aria-label="Recent activity">
              {activity.data.map((item) => (
                <li key={item.id}>
                  <StateDot state={ACTIVITY_TONE[item.type] ?? 'unknown'} label="" />
                  <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    {item.link ? <a href={item.link}>{item.message}</a> : item.message}
                  </span>
                  <Time value={item.time} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  )
}
