import { useState } from 'preact/hooks'
import { api, type Envelope, withQuery } from '../api.ts'
import { CopyBlock } from '../components/copy-block.tsx'
import { IncidentList, useMonitorIncidents, useMonitorRefresh } from '../components/monitor.tsx'
import { Sparkline } from '../components/sparkline.tsx'
import { ErrorText, Loading, StateDot } from '../components/status.tsx'
import { formatPercent, Time } from '../components/time.tsx'
import { useResource } from '../components/use-api.ts'
import { displayState } from '../monitors.ts'
import { useOrg } from '../org.ts'
import {
  DayBar,
  type Heartbeat,
  type HeartbeatDay,
  RunLog,
  runSeconds,
  scheduleText,
  useRunLog,
} from './heartbeat-parts.tsx'
import './heartbeat-detail.css'
import { ManagedWarning, useManagedByCode } from '../components/managed-by-code.tsx'
import { MonitorDependencies } from './monitor-dependencies.tsx'

const SPANS = [30, 90] as const
type Span = (typeof SPANS)[number]

/** Totals of the days shown: uptime over their runs, and the run time averaged over the days that had one. */
function totalsOf(days: HeartbeatDay[]) {
  const runs = days.reduce((sum, day) => sum + day.runs, 0)
  const failures = days.reduce((sum, day) => sum + day.failures, 0)
  const missed = days.reduce((sum, day) => sum + (day.missed ?? 0), 0)
  const timed = days.filter((day) => day.avgRunSeconds !== null)
  return {
    runs,
    failures,
    missed,
    uptime: runs ? ((runs - failures) / runs) * 100 : null,
    averageRun: timed.length ? timed.reduce((sum, day) => sum + day.avgRunSeconds!, 0) / timed.length : null,
    slowestP95: timed.length ? Math.max(...timed.map((day) => day.p95RunSeconds ?? 0)) : null,
  }
}

/** One heartbeat: its state and why, its days as a bar, its run time per day, incidents and run log. */
export default function HeartbeatDetail({ id }: { id: string }) {
  const { current } = useOrg()
  const managed = useManagedByCode(current.id)
  const [span, setSpan] = useState<Span>(30)
  const path = `/api/heartbeats/${encodeURIComponent(id)}`
  const detail = useResource(() => api.get<Envelope<Heartbeat>>(path).then((body) => body.data), [current.id, id])
  const history = useResource(
    () => api.get<Envelope<HeartbeatDay[]>>(`${path}/daily`, { days: span }).then((body) => body.data),
    [current.id, id, span],
  )
  const pings = useRunLog(id, current.id)
  const incidents = useMonitorIncidents(id, current.id)
  useMonitorRefresh(id, detail.data?.every ?? undefined, {
    everything: [detail, history, pings, incidents],
    perCheck: [detail, history, pings],
  })

  const heartbeat = detail.data
  if (detail.error && !heartbeat) return <ErrorText error={detail.error} retry={detail.reload} />
  if (!heartbeat) return <Loading lines={10} label="Loading the heartbeat…" />
  const days = history.data
  const totals = days ? totalsOf(days) : undefined
  return (
    <section aria-labelledby="heartbeat-title">
      <p>
        <a href="/heartbeats">← Heartbeats</a>
      </p>
      <div class="page-head">
        <h1 id="heartbeat-title">{heartbeat.name}</h1>
        <StateDot state={displayState(heartbeat.status, heartbeat.enabled)} />
      </div>
      {managed.has(heartbeat.id) && <ManagedWarning />}
      <p class="muted heartbeat-facts">
        <code>{scheduleText(heartbeat)}</code> · grace {heartbeat.grace} s
        {heartbeat.maxDuration ? ` · runs up to ${heartbeat.maxDuration} s` : ''} · last ping{' '}
        {heartbeat.lastPing ? <Time value={heartbeat.lastPing.at} /> : 'never'} · next expected{' '}
        <Time value={heartbeat.nextExpectedAt} />
        {heartbeat.runningSince ? (
          <>
            {' '}
            · running since <Time value={heartbeat.runningSince} />
          </>
        ) : null}
      </p>
      {heartbeat.status === 'down' && heartbeat.lastError ? (
        <div class="error" role="status">
          Down: {heartbeat.lastError.message} (<Time value={heartbeat.lastError.at} />)
        </div>
      ) : null}

      <div class="page-head">
        <h2 id="daily-title">Daily history</h2>
        <fieldset class="tabs">
          <legend class="visually-hidden">Days shown</legend>
          {SPANS.map((value) => (
            <button key={value} type="button" aria-pressed={value === span} onClick={() => setSpan(value)}>
              {value} days
            </button>
          ))}
        </fieldset>
        <a class="button" href={withQuery(`${path}/daily`, { days: span, format: 'csv' })} download>
          Download CSV
        </a>
      </div>
      <ErrorText error={history.error} retry={history.reload} />
      <div class="card heartbeat-card" aria-busy={!days}>
        {days ? (
          <DayBar days={days} label={`Daily history of ${heartbeat.name} over ${days.length} days`} />
        ) : (
          <Loading lines={1} />
        )}
      </div>
      <div class="cards">
        <div class="card stat">
          <span class="stat-label">Uptime ({span} days)</span>
          <span class="stat-value">{totals ? formatPercent(totals.uptime) : '…'}</span>
          <span class="stat-sub">
            {totals ? `${totals.failures} of ${totals.runs} runs failed, ${totals.missed} missed` : ' '}
          </span>
        </div>
        <div class="card stat">
          <span class="stat-label">Average run time</span>
          <span class="stat-value">{totals ? runSeconds(totals.averageRun) : '…'}</span>
          <span class="stat-sub">{totals ? `slowest day's p95 ${runSeconds(totals.slowestP95)}` : ' '}</span>
        </div>
        <div class="card stat">
          <span class="stat-label">Run time per day</span>
          {days ? (
            <Sparkline
              label={`Average run time of ${heartbeat.name} per day over ${days.length} days`}
              values={days.map((day) => day.avgRunSeconds)}
              width={150}
              height={40}
            />
          ) : (
            <span class="stat-value">…</span>
          )}
          <span class="stat-sub">runs timed from their /start ping</span>
        </div>
      </div>

      <CopyBlock label="Ping URL" value={heartbeat.pingUrl} />

      <MonitorDependencies id={id} name={heartbeat.name} />
      <h2>Incidents</h2>
      <ErrorText error={incidents.error} />
      <IncidentList incidents={incidents.data} />

      <h2>Run log</h2>
      <RunLog name={heartbeat.name} pings={pings} />
    </section>
  )
}
