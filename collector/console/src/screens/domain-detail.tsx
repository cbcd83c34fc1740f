import { useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { HeartbeatBar, useRecentChecks } from '../components/heartbeat-bar.tsx'
import {
  HistoryTable,
  IncidentList,
  LatencyChart,
  MonitorActions,
  PhaseBreakdown,
  RAW_POINTS,
  RangePicker,
  rawSuffices,
  useMonitorIncidents,
  useMonitorRefresh,
} from '../components/monitor.tsx'
import { ErrorText, Loading, StateDot } from '../components/status.tsx'
import { formatDuration, formatMs, formatPercent, Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import {
  type DomainDetail as Detail,
  type DomainStats,
  displayState,
  type HistoryEntry,
  historyRange,
  type LatencySeries,
  type LocationPoint,
  type Range,
} from '../monitors.ts'
import { useOrg } from '../org.ts'
import { type Registration, RegistrationCard } from './domain-registration.tsx'
import { MonitorDependencies } from './monitor-dependencies.tsx'

/** Checks the detail's heartbeat bar holds at most; a narrow screen shows the newest that fit. */
const BEATS = 90

type ChartPoints = Record<string, Array<{ timestamp: string; responseTime: number; status?: string }>>

/**
 * What the latency chart draws. The last hour: every raw check (and a location without a probe).
 * Longer ranges: rollup buckets, which cover the whole range where raw results are capped and kept
 * 35 days; but while the range holds few checks (a new monitor) the raw results are all there and
 * draw its checks one by one, where buckets would draw one lone dot.
 */
async function chartPoints(id: string, range: Range): Promise<ChartPoints> {
  const raw = () =>
    api
      .get<Envelope<Record<string, LocationPoint[]>>>(`/api/domains/${id}/monitoring/locations`, {
        range: historyRange(range),
        limit: RAW_POINTS,
      })
      .then((body) => body.data)
  if (range === '1h') return raw()
  const buckets = (await api.get<Envelope<LatencySeries>>(`/api/domains/${id}/monitoring/latency`, { range })).data
    .locations
  return rawSuffices(buckets, range, 'location') ? raw() : buckets
}

export default function DomainDetail({ id }: { id: string }) {
  const { current } = useOrg()
  const [range, setRange] = useState<Range>('24h')
  const detail = useResource(
    () =>
      api
        .get<Envelope<Detail & { registration?: Registration | null }>>(`/api/domains/${id}`)
        .then((body) => body.data),
    [current.id, id],
  )
  const stats = useResource(
    () => api.get<Envelope<DomainStats>>(`/api/domains/${id}/stats`, { period: range }).then((body) => body.data),
    [current.id, id, range],
  )
  const locations = useResource(() => chartPoints(id, range), [current.id, id, range])
  const history = useResource(
    () =>
      api
        .get<Envelope<HistoryEntry[]>>(`/api/domains/${id}/monitoring/history`, {
          range: historyRange(range),
          limit: 100,
        })
        .then((body) => body.data),
    [current.id, id, range],
  )
  const incidents = useMonitorIncidents(id, current.id)
  const beats = useRecentChecks([id], BEATS, current.id)
  const reloadAll = useMonitorRefresh(id, detail.data?.checkInterval, {
    everything: [detail, stats, locations, history, incidents, beats],
    perCheck: [locations, history, detail, beats],
  })

  const domain = detail.data
  if (detail.error && !domain) return <ErrorText error={detail.error} retry={detail.reload} />
  if (!domain) return <Loading lines={10} label="Loading the domain…" />
  const state = displayState(domain.status, domain.enabled)
  return (
    <section aria-labelledby="domain-title">
      <p>
        <a href="/domains">← Domains</a>
      </p>
      <div class="page-head">
        <h1 id="domain-title">{domain.name}</h1>
        <StateDot state={state} />
        <MonitorActions kind="domains" id={id} name={domain.name} enabled={domain.enabled} onChanged={reloadAll} />
      </div>
      <p class="muted" style={{ overflowWrap: 'anywhere', marginTop: '-0.5rem' }}>
        {domain.url} · every {formatDuration(domain.checkInterval)} · last check <Time value={domain.lastCheck} />
      </p>
      {domain.status === 'down' && domain.lastError ? (
        <div class="error" role="status">
          {domain.lastError.message}
          {domain.failingLocations?.length ? ` (failing at ${domain.failingLocations.join(', ')})` : ''}
        </div>
      ) : null}
      <div class="card heartbeat-card">
        <ErrorText error={beats.error} retry={beats.reload} />
        <HeartbeatBar
          checks={beats.data?.get(id)?.checks ?? (beats.data ? [] : undefined)}
          slots={BEATS}
          label={`Recent checks of ${domain.name}`}
          variant="wide"
        />
      </div>
      <RangePicker value={range} onChange={setRange} />
      <div class="cards">
        <div class="card stat">
          <span class="stat-label">Uptime ({range})</span>
          <span class="stat-value">{stats.data ? formatPercent(stats.data.uptime_percentage) : '…'}</span>
          <span class="stat-sub">
            {stats.data ? `${stats.data.failed_checks} of ${stats.data.total_checks} checks failed` : ' '}
          </span>
        </div>
        <div class="card stat">
          <span class="stat-label">Average response</span>
          <span class="stat-value">{stats.data ? formatMs(stats.data.average_response_time_ms) : '…'}</span>
          <span class="stat-sub">{stats.data ? `p95 ${formatMs(stats.data.p95_response_time_ms)}` : ' '}</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Incidents ({range})</span>
          <span class="stat-value">{stats.data ? stats.data.incidents_count : '…'}</span>
          <span class="stat-sub">{stats.data ? `${formatDuration(stats.data.total_downtime_seconds)} down` : ' '}</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Certificate</span>
          <span class="stat-value" style={{ fontSize: '1.1rem' }}>
            {domain.certificate ? (domain.certificate.valid ? 'Valid' : 'Invalid') : 'None'}
          </span>
          <span class="stat-sub">
            {domain.certificate ? (
              <>
                expires <Time value={domain.certificate.expiresAt} /> · {domain.certificate.issuer}
              </>
            ) : domain.url.startsWith('https:') ? (
              'not read yet'
            ) : (
              'plain HTTP'
            )}
          </span>
        </div>
        <RegistrationCard registration={domain.registration} />
      </div>
      <ErrorText error={stats.error} />
      <h2>Response time by location</h2>
      <ErrorText error={locations.error} retry={locations.reload} />
      <LatencyChart byLocation={locations.data} range={range} label={`Response time of ${domain.name} per location`} />
      <h2>Timing phases</h2>
      {history.data ? <PhaseBreakdown entries={history.data} /> : <Loading lines={1} />}
      <MonitorDependencies id={id} name={domain.name} />
      <h2>Incidents</h2>
      <ErrorText error={incidents.error} />
      <IncidentList incidents={incidents.data} />
      <h2>Latest checks</h2>
      <ErrorText error={history.error} retry={history.reload} />
      {history.data ? <HistoryTable entries={history.data} showCode /> : <Loading lines={6} />}
    </section>
  )
}
