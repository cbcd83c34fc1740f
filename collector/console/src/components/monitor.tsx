import { useMemo, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, type Envelope } from '../api.ts'
import { useLive } from '../live.ts'
import {
  type HistoryEntry,
  historyRange,
  type Incident,
  type LatencySeries,
  MONITOR_EVENTS,
  PHASES,
  type Phases,
  RANGE_SECONDS,
  RANGES,
  type Range,
} from '../monitors.ts'
import { Chart, type ChartSeries } from './chart.tsx'
import { Confirm } from './dialog.tsx'
import { Empty, ErrorText, StateDot } from './status.tsx'
import { type Column, Table } from './table.tsx'
import { formatMs, Time } from './time.tsx'
import { type Resource, usePolling, useResource } from './use-api.ts'

/** The newest ten incidents of one monitor, for its detail screen. */
export function useMonitorIncidents(id: string, organizationId: string): Resource<Incident[]> {
  return useResource(
    () =>
      api
        .get<Envelope<Incident[]>>('/api/incidents', { limit: 100 })
        .then((body) => body.data.filter((incident) => incident.monitorId === id).slice(0, 10)),
    [organizationId, id],
  )
}

/**
 * Keeps a monitor's detail screen current: everything reloads on one of the monitor's live events,
 * and what new checks change reloads once per check interval (at least every 10 s) meanwhile.
 */
export function useMonitorRefresh(
  id: string,
  checkInterval: number | undefined,
  resources: { everything: Array<Resource<unknown>>; perCheck: Array<Resource<unknown>> },
): () => void {
  const reloadAll = () => {
    for (const resource of resources.everything) resource.reload()
  }
  useLive(MONITOR_EVENTS, (event) => {
    if (event.data.monitorId === id) reloadAll()
  })
  usePolling(
    () => {
      for (const resource of resources.perCheck) resource.reload()
    },
    Math.max(checkInterval ?? 30, 10),
  )
  return reloadAll
}

/** The range buttons of a detail screen (1 h … 90 d). */
export function RangePicker({ value, onChange }: { value: Range; onChange: (range: Range) => void }) {
  return (
    <fieldset class="tabs">
      <legend class="visually-hidden">Time range</legend>
      {RANGES.map((range) => (
        <button key={range} type="button" aria-pressed={range === value} onClick={() => onChange(range)}>
          {range}
        </button>
      ))}
    </fieldset>
  )
}

/**
 * Aligns per-series points on one shared time axis (uPlot's data shape). A series has no value
 * (undefined) at another's timestamps, so each location's line runs on across checks that do not
 * line up; it breaks (null) only where a location had no probe.
 */
export function alignSeries(
  byName: Record<string, Array<{ timestamp: string; responseTime: number; status?: string }>>,
) {
  const names = Object.keys(byName).sort()
  const times = new Set<number>()
  for (const name of names) for (const point of byName[name]!) times.add(Math.floor(Date.parse(point.timestamp) / 1000))
  const x = [...times].sort((a, b) => a - b)
  const index = new Map(x.map((time, position) => [time, position]))
  const series: ChartSeries[] = names.map((name) => {
    const values: Array<number | null | undefined> = new Array(x.length).fill(undefined)
    for (const point of byName[name]!) {
      values[index.get(Math.floor(Date.parse(point.timestamp) / 1000))!] =
        point.status === 'no probe' ? null : point.responseTime
    }
    return { label: name, values }
  })
  return { x, series }
}

/** Raw results a chart's raw read answers at most (per location for domains, in all for services). */
export const RAW_POINTS = 1000

/**
 * Whether a range's buckets hold so few checks, all young enough to be kept raw (35 days), that one
 * raw read returns every one of them: a new monitor's chart then draws its checks one by one where
 * buckets would draw a lone dot. `per` says what the raw read's limit counts.
 */
export function rawSuffices(buckets: LatencySeries['locations'], range: Range, per: 'location' | 'monitor'): boolean {
  const since = Date.now() - RANGE_SECONDS[historyRange(range)] * 1000
  const series = Object.values(buckets)
  const checks = series.map((list) => list.reduce((sum, bucket) => sum + bucket.checks, 0))
  const most = per === 'location' ? Math.max(0, ...checks) : checks.reduce((sum, count) => sum + count, 0)
  return most <= RAW_POINTS && series.every((list) => list.every((bucket) => Date.parse(bucket.timestamp) >= since))
}

/** A latency chart with one line per location, spanning the whole range up to when its data came. */
export function LatencyChart({
  byLocation,
  range,
  label,
}: {
  byLocation: Record<string, Array<{ timestamp: string; responseTime: number; status?: string }>> | undefined
  range: Range
  label: string
}) {
  const aligned = useMemo(() => {
    if (!byLocation) return undefined
    const to = Math.floor(Date.now() / 1000)
    return { ...alignSeries(byLocation), window: { from: to - RANGE_SECONDS[range], to } }
  }, [byLocation, range])
  if (!aligned || aligned.x.length === 0) {
    return (
      <div class="card" style={{ minHeight: '280px', display: 'grid', placeItems: 'center' }}>
        <span class="muted">{byLocation ? 'No checks in this range yet.' : 'Loading the chart…'}</span>
      </div>
    )
  }
  return (
    <div class="card">
      <Chart x={aligned.x} series={aligned.series} window={aligned.window} label={label} />
    </div>
  )
}

/** Average time per phase over the given checks, as a stacked bar with a legend. */
export function PhaseBreakdown({ entries }: { entries: HistoryEntry[] }) {
  const withPhases = entries.filter((entry) => entry.phases && entry.status !== 'down')
  if (withPhases.length === 0) {
    return <p class="muted">No timing phases yet (HTTP checks report DNS, connect, TLS, first byte and transfer).</p>
  }
  const averages = PHASES.map((phase) => {
    const values = withPhases
      .map((entry) => entry.phases?.[phase.key as keyof Phases])
      .filter((value): value is number => typeof value === 'number')
    return { ...phase, value: values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0 }
  })
  const total = averages.reduce((sum, phase) => sum + phase.value, 0) || 1
  return (
    <div>
      <div class="phases" role="img" aria-label="Average time per phase">
        {averages.map((phase) => (
          <span
            key={phase.key}
            style={{ width: `${(phase.value / total) * 100}%`, background: phase.color }}
            title={`${phase.label}: ${formatMs(phase.value)}`}
          />
        ))}
      </div>
      <div class="legend">
        {averages.map((phase) => (
          <span key={phase.key}>
            <i style={{ background: phase.color }} />
            {phase.label} {formatMs(phase.value)}
          </span>
        ))}
      </div>
      <p class="muted" style={{ fontSize: '0.85rem' }}>
        Average of the last {withPhases.length} checks that answered.
      </p>
    </div>
  )
}

const phaseText = (phases: Phases | undefined) =>
  phases
    ? PHASES.filter((phase) => phases[phase.key] !== undefined)
        .map((phase) => `${phase.label} ${formatMs(phases[phase.key])}`)
        .join(' · ')
    : ''

/** The latest checks, newest first, with why a check failed. */
export function HistoryTable({ entries, showCode }: { entries: HistoryEntry[]; showCode: boolean }) {
  if (entries.length === 0) return <Empty title="No checks in this range" />
  const columns: Array<Column<HistoryEntry>> = [
    { header: 'Time', cell: (entry) => <Time value={entry.timestamp} mode="full" /> },
    { header: 'Result', cell: (entry) => <StateDot state={entry.status} /> },
    ...(entries.some((entry) => entry.location)
      ? [{ header: 'Location', cell: (entry: HistoryEntry) => entry.location ?? '—' }]
      : []),
    ...(showCode
      ? [
          {
            header: 'Code',
            secondary: true,
            align: 'right' as const,
            cell: (entry: HistoryEntry) => entry.statusCode || '—',
          },
        ]
      : []),
    { header: 'Time taken', align: 'right', cell: (entry) => formatMs(entry.responseTime) },
    {
      header: 'Details',
      secondary: true,
      cell: (entry) => (
        <small class={entry.status === 'up' ? 'muted' : ''}>
          {entry.error ?? (entry.status !== 'up' ? entry.message : undefined) ?? phaseText(entry.phases)}
        </small>
      ),
    },
  ]
  return <Table caption="Latest checks" rows={entries.slice(0, 50)} columns={columns} rowKey={(entry) => entry.id} />
}

export function IncidentList({ incidents }: { incidents: Incident[] | undefined }) {
  if (!incidents) return null
  if (incidents.length === 0) return <p class="muted">No incidents.</p>
  return (
    <ul class="card activity">
      {incidents.map((incident) => (
        <li key={incident.id}>
          <span class={`badge badge-${incident.status === 'resolved' ? 'resolved' : incident.severity}`}>
            {incident.status}
          </span>
          <a href={`/incidents/${incident.id}`}>{incident.title}</a>
          <Time value={incident.detectedAt} />
        </li>
      ))}
    </ul>
  )
}

/** Edit, pause or resume, and delete (after asking) a domain or service. */
export function MonitorActions({
  kind,
  id,
  name,
  enabled,
  onChanged,
  inRow = false,
}: {
  kind: 'domains' | 'services'
  id: string
  name: string
  enabled: boolean
  onChanged: () => void
  /** In a list row: buttons name their monitor for screen readers, and a deletion stays on the list. */
  inRow?: boolean
}) {
  const location = useLocation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const [confirming, setConfirming] = useState(false)
  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    try {
      await work()
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <div class={inRow ? 'actions row-actions' : 'actions'}>
        <a class="button" href={`/${kind}/${id}/edit`} aria-label={inRow ? `Edit ${name}` : undefined}>
          Edit
        </a>
        <button
          type="button"
          disabled={busy}
          aria-label={inRow ? `${enabled ? 'Pause' : 'Resume'} ${name}` : undefined}
          onClick={() =>
            run(async () => {
              await api.put(`/api/${kind}/${id}`, { enabled: !enabled })
              onChanged()
            })
          }
        >
          {enabled ? 'Pause' : 'Resume'}
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          aria-label={inRow ? `Delete ${name}` : undefined}
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      </div>
      <ErrorText error={error} />
      <Confirm
        open={confirming}
        title={`Delete ${name}?`}
        message="Its checks stop and its history is no longer shown. This cannot be undone."
        confirmLabel="Delete"
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          run(async () => {
            setConfirming(false)
            await api.del(`/api/${kind}/${id}`)
            if (inRow) onChanged()
            else location.route(`/${kind}`)
          })
        }
      />
    </>
  )
}
