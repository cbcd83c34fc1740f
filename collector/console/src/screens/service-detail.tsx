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
  displayState,
  type HistoryEntry,
  type LatencySeries,
  RANGE_SECONDS,
  type Range,
  type ServiceItem,
} from '../monitors.ts'
import { useOrg } from '../org.ts'
import { MonitorDependencies } from './monitor-dependencies.tsx'
import { optionValuesOf } from './protocol-fields.tsx'

/** Checks the detail's heartbeat bar holds at most; a narrow screen shows the newest that fit. */
const BEATS = 90

/**
 * What the latency chart draws: rollup buckets, or, while the range holds few enough checks that
 * one read of the history returns them all (a new service), each check by location.
 */
async function chartPoints(
  id: string,
  range: Range,
): Promise<Record<string, Array<{ timestamp: string; responseTime: number }>>> {
  const buckets = (await api.get<Envelope<LatencySeries>>(`/api/services/${id}/latency`, { range })).data.locations
  if (!rawSuffices(buckets, range, 'monitor')) return buckets
  const since = Date.now() - RANGE_SECONDS[range] * 1000
  const history = await api.get<Envelope<HistoryEntry[]>>(`/api/services/${id}/history`, { limit: RAW_POINTS })
  const byLocation: Record<string, HistoryEntry[]> = {}
  for (const entry of [...history.data].reverse()) {
    if (Date.parse(entry.timestamp) < since || !entry.location) continue
    const list = byLocation[entry.location] ?? []
    list.push(entry)
    byLocation[entry.location] = list
  }
  return byLocation
}

interface CheckOutcome {
  status: string
  responseTime: number
  message: string
}

/**
 * Waits, a few seconds at most, until the collector has taken a recorded check in (its last check
 * moved), so the reload after it shows the state that check left.
 */
async function ingested(id: string, lastCheck: string | null): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    const fresh = await api.get<Envelope<ServiceItem>>(`/api/services/${id}`)
    if (fresh.data.lastCheck !== lastCheck) return
  }
}

export default function ServiceDetail({ id }: { id: string }) {
  const { current } = useOrg()
  const [range, setRange] = useState<Range>('24h')
  const detail = useResource(
    () => api.get<Envelope<ServiceItem>>(`/api/services/${id}`).then((body) => body.data),
    [current.id, id],
  )
  const latency = useResource(() => chartPoints(id, range), [current.id, id, range])
  const history = useResource(
    () => api.get<Envelope<HistoryEntry[]>>(`/api/services/${id}/history`, { limit: 500 }).then((body) => body.data),
    [current.id, id],
  )
  const incidents = useMonitorIncidents(id, current.id)
  const [checking, setChecking] = useState(false)
  const [outcome, setOutcome] = useState<CheckOutcome | undefined>(undefined)
  const [checkError, setCheckError] = useState<unknown>(undefined)
  const beats = useRecentChecks([id], BEATS, current.id)
  const reloadAll = useMonitorRefresh(id, detail.data?.checkInterval, {
    everything: [detail, latency, history, incidents, beats],
    perCheck: [history, latency, detail, beats],
  })

  const service = detail.data
  if (detail.error && !service) return <ErrorText error={detail.error} retry={detail.reload} />
  if (!service) return <Loading lines={10} label="Loading the service…" />
  const entries = history.data ?? []
  const up = entries.filter((entry) => entry.status !== 'down').length
  const answered = entries.filter((entry) => entry.status !== 'down')
  const average = answered.length
    ? answered.reduce((sum, entry) => sum + entry.responseTime, 0) / answered.length
    : null
  const { host, port, path } = service.protocolConfig
  const checkNow = async () => {
    setChecking(true)
    setCheckError(undefined)
    try {
      // Recorded like a scheduled check: the user asked for a check, so the header, history
      // and incidents follow its result instead of waiting for the next interval.
      setOutcome((await api.post<Envelope<CheckOutcome>>(`/api/services/${id}/check?store=true`)).data)
      await ingested(id, service.lastCheck)
      reloadAll()
    } catch (error) {
      setCheckError(error)
    } finally {
      setChecking(false)
    }
  }
  return (
    <section aria-labelledby="service-title">
      <p>
        <a href="/services">← Services</a>
      </p>
      <div class="page-head">
        <h1 id="service-title">{service.name}</h1>
        <StateDot state={displayState(service.status, service.enabled)} />
        <button type="button" onClick={checkNow} disabled={checking}>
          {checking ? 'Checking…' : 'Check now'}
        </button>
        <MonitorActions kind="services" id={id} name={service.name} enabled={service.enabled} onChanged={reloadAll} />
      </div>
      <p class="muted" style={{ overflowWrap: 'anywhere', marginTop: '-0.5rem' }}>
        {service.protocol.toUpperCase()} {host}
        {port ? `:${port}` : ''}
        {path ?? ''} · every {formatDuration(service.checkInterval)} · last check <Time value={service.lastCheck} />
      </p>
      <ErrorText error={checkError} />
      {outcome ? (
        <p role="status" class="card">
          Checked now: <StateDot state={outcome.status} /> in {formatMs(outcome.responseTime)} — {outcome.message}
        </p>
      ) : null}
      {service.status === 'down' && service.lastError ? (
        <div class="error" role="status">
          {service.lastError.message}
        </div>
      ) : null}
      <div class="card heartbeat-card">
        <ErrorText error={beats.error} retry={beats.reload} />
        <HeartbeatBar
          checks={beats.data?.get(id)?.checks ?? (beats.data ? [] : undefined)}
          slots={BEATS}
          label={`Recent checks of ${service.name}`}
          variant="wide"
        />
      </div>
      <div class="cards">
        <div class="card stat">
          <span class="stat-label">Uptime (last {entries.length} checks)</span>
          <span class="stat-value">{entries.length ? formatPercent((up / entries.length) * 100) : '—'}</span>
          <span class="stat-sub">{service.consecutiveFailures} failures in a row</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Average response</span>
          <span class="stat-value">{formatMs(average)}</span>
          <span class="stat-sub">timeout {service.timeout} s</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Locations</span>
          <span class="stat-value" style={{ fontSize: '1.1rem' }}>
            {service.locations?.join(', ') ?? 'default'}
          </span>
          <span class="stat-sub">
            {service.failingLocations?.length ? `failing: ${service.failingLocations.join(', ')}` : ' '}
          </span>
        </div>
      </div>
      <RegistryOptions service={service} />
      <h2>Response time by location</h2>
      <RangePicker value={range} onChange={setRange} />
      <ErrorText error={latency.error} retry={latency.reload} />
      <LatencyChart byLocation={latency.data} range={range} label={`Response time of ${service.name} per location`} />
      {service.protocol === 'http' || service.protocol === 'https' || history.data?.some((entry) => entry.phases) ? (
        <>
          <h2>Timing phases</h2>
          {history.data ? <PhaseBreakdown entries={history.data} /> : <Loading lines={1} />}
        </>
      ) : null}
      <MonitorDependencies id={id} name={service.name} />
      <h2>Incidents</h2>
      <IncidentList incidents={incidents.data} />
      <h2>Latest checks</h2>
      {history.data ? <HistoryTable entries={history.data} showCode={false} /> : <Loading lines={6} />}
    </section>
  )
}

const BUILT_IN = ['http', 'https', 'tcp', 'dns', 'tls', 'icmp']

/** A registry protocol's options as stored (README "Check protocols"); its secrets only as "set". */
function RegistryOptions({ service }: { service: ServiceItem }) {
  if (BUILT_IN.includes(service.protocol)) return null
  const options = Object.entries(optionValuesOf(service.protocolConfig))
  const secretsSet = service.protocolConfig.secretsSet
  if (options.length === 0 && secretsSet === undefined) return null
  return (
    <>
      <h2>Options</h2>
      <dl class="card">
        {options.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{String(value)}</dd>
          </div>
        ))}
        {secretsSet === undefined ? null : (
          <div>
            <dt>Secrets</dt>
            <dd>{secretsSet ? 'set' : 'not set'}</dd>
          </div>
        )}
      </dl>
    </>
  )
}
