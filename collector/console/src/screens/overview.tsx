import { useEffect } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { Empty, ErrorText, Loading, StateDot } from '../components/status.tsx'
import { formatMs, formatPercent, Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { useLive } from '../live.ts'
import { type DomainItem, type Page, type ServiceItem, STATE_ORDER } from '../monitors.ts'
import { useOrg } from '../org.ts'

interface DashboardStats {
  domains: { total: number; up: number; down: number; uptime: number | null }
  devices: { total: number; online: number; offline: number }
  services: { total: number; up: number; down: number }
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
  kind: 'domain' | 'service'
  name: string
  detail: string
  status: string
  responseTime: number | null
  problem: string | undefined
}

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

/** The first screen: how everything is right now, what is down at the top, what happened lately. */
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
  const monitors = useResource(async (): Promise<Row[]> => {
    const [domains, services] = await Promise.all([
      api.get<Page<DomainItem>>('/api/domains', { limit: 200 }),
      api.get<Envelope<ServiceItem[]>>('/api/services', { organizationId: current.id }),
    ])
    const rows: Row[] = [
      ...domains.data.map((domain) => ({
        id: domain.id,
        kind: 'domain' as const,
        name: domain.name,
        detail: domain.url,
        status: domain.status,
        responseTime: domain.responseTime,
        problem: domain.status === 'down' ? domain.lastError?.message : undefined,
      })),
      ...services.data.map((service) => ({
        id: service.id,
        kind: 'service' as const,
        name: service.name,
        detail: `${service.protocol}://${service.protocolConfig.host}${service.protocolConfig.port ? `:${service.protocolConfig.port}` : ''}`,
        status: service.enabled ? service.status : 'paused',
        responseTime: null,
        problem: service.status === 'down' ? service.lastError?.message : undefined,
      })),
    ]
    return rows.sort(
      (a, b) => (STATE_ORDER[a.status] ?? 3) - (STATE_ORDER[b.status] ?? 3) || a.name.localeCompare(b.name),
    )
  }, [current.id])

  useLive(['*'], () => {
    stats.reload()
    activity.reload()
    monitors.reload()
  })

  const ready = stats.data !== undefined && monitors.data !== undefined && activity.data !== undefined
  useEffect(() => {
    // What bench/console measures: the first moment the overview shows its data.
    if (ready && performance.getEntriesByName('guard:overview-ready').length === 0) {
      performance.mark('guard:overview-ready')
    }
  }, [ready])

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
          <ErrorText error={monitors.error} retry={monitors.reload} />
          {monitors.data === undefined ? (
            monitors.error ? null : (
              <Loading lines={5} />
            )
          ) : monitors.data.length === 0 ? (
            <Empty title="Nothing is monitored yet">
              <a href="/domains/new">Add a domain</a> or <a href="/services/new">a service</a> to start.
            </Empty>
          ) : (
            <ul class="card activity" aria-label="Monitors, down first">
              {monitors.data.slice(0, 12).map((row) => (
                <li key={`${row.kind}-${row.id}`}>
                  <StateDot state={row.status} />
                  <span style={{ minWidth: 0 }}>
                    <a href={`/${row.kind}s/${row.id}`}>{row.name}</a>
                    <br />
                    <small class="muted" style={{ overflowWrap: 'anywhere' }}>
                      {row.problem ?? row.detail}
                    </small>
                  </span>
                  {row.responseTime !== null && row.status !== 'down' ? (
                    <span class="muted num" style={{ marginLeft: 'auto' }}>
                      {formatMs(row.responseTime)}
                    </span>
                  ) : null}
                </li>
              ))}
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
