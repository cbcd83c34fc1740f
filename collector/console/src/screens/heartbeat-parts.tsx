import { api, type Envelope } from '../api.ts'
import { Empty, ErrorText, Loading } from '../components/status.tsx'
import { Table } from '../components/table.tsx'
import { Time } from '../components/time.tsx'
import { type Resource, useResource } from '../components/use-api.ts'

/** A heartbeat as `GET /api/heartbeats` answers it. */
export interface Heartbeat {
  id: string
  name: string
  tags?: string[]
  every: number | null
  cron: string | null
  timezone: string
  grace: number
  maxDuration: number | null
  enabled: boolean
  status: 'up' | 'down' | 'unknown'
  pingUrl: string
  nextExpectedAt: string
  lastPing: { at: string; type: string } | null
  runningSince: string | null
  lastError?: { kind: string; message: string; at: string }
}

/** One UTC day as `GET /api/heartbeats/{id}/daily` answers it. */
export interface HeartbeatDay {
  date: string
  runs: number
  failures: number
  /** Null where the raw results that say so are no longer kept. */
  missed: number | null
  uptime: number | null
  avgRunSeconds: number | null
  p95RunSeconds: number | null
}

export const REASON: Record<string, string> = {
  missed: 'no ping in time',
  failed: 'the job reported a failure',
  exit_code: 'the job exited with an error',
  too_long: 'a run took too long',
}

export const scheduleText = (heartbeat: Pick<Heartbeat, 'every' | 'cron' | 'timezone'>) =>
  heartbeat.cron ? `${heartbeat.cron} (${heartbeat.timezone})` : `every ${heartbeat.every} s`

export const runSeconds = (seconds: number | null) => (seconds === null ? '—' : `${seconds.toFixed(1)} s`)

interface Ping {
  id: string
  type: 'success' | 'start' | 'fail' | 'exit'
  exitCode: number | null
  receivedAt: string
  durationMs: number | null
  sourceIp: string
  body: string
}

const PING_TEXT: Record<Ping['type'], string> = { success: 'Success', start: 'Started', fail: 'Failed', exit: 'Exit' }

/** The heartbeat's newest 50 pings. */
export function useRunLog(id: string, organizationId: string): Resource<Ping[]> {
  return useResource(
    () =>
      api
        .get<Envelope<Ping[]>>(`/api/heartbeats/${encodeURIComponent(id)}/pings`, { limit: 50 })
        .then((body) => body.data),
    [organizationId, id],
  )
}

/** The newest pings, each with what it said, how long its run took, where it came from and its body. */
export function RunLog({ name, pings }: { name: string; pings: Resource<Ping[]> }) {
  if (pings.error) return <ErrorText error={pings.error} retry={pings.reload} />
  if (!pings.data) return <Loading label="Loading the run log…" />
  if (pings.data.length === 0) return <Empty title="No pings yet" />
  return (
    <Table
      caption={`Run log of ${name}`}
      rows={pings.data}
      rowKey={(ping) => ping.id}
      columns={[
        { header: 'Time', cell: (ping) => <Time value={ping.receivedAt} /> },
        {
          header: 'Ping',
          cell: (ping) => (ping.type === 'exit' ? `Exit code ${ping.exitCode}` : PING_TEXT[ping.type]),
        },
        {
          header: 'Run time',
          cell: (ping) => (ping.durationMs === null ? '' : `${(ping.durationMs / 1000).toFixed(1)} s`),
        },
        { header: 'From', secondary: true, cell: (ping) => <code>{ping.sourceIp}</code> },
        {
          header: 'Body',
          cell: (ping) =>
            ping.body ? (
              <details>
                <summary>{ping.body.length > 40 ? `${ping.body.slice(0, 40)}…` : ping.body}</summary>
                <pre>{ping.body}</pre>
              </details>
            ) : (
              ''
            ),
        },
      ]}
    />
  )
}

const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })

/** A day's look: no data, every run fine, some failed (partial), or all failed. */
function dayState(day: HeartbeatDay): 'empty' | 'up' | 'degraded' | 'down' {
  if (day.runs === 0) return 'empty'
  if (day.failures === 0) return 'up'
  return day.failures < day.runs ? 'degraded' : 'down'
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** What a day's tooltip says: the date, its runs and failures (missed ones apart) and the average run time. */
export function describeDay(day: HeartbeatDay): string {
  const date = `${utcDay.format(new Date(`${day.date}T00:00:00Z`))} (UTC)`
  if (day.runs === 0) return `${date} · no data`
  const missed = day.missed ? ` (${day.missed} missed)` : ''
  const average = day.avgRunSeconds === null ? '' : ` · average run ${runSeconds(day.avgRunSeconds)}`
  return `${date} · ${plural(day.runs, 'run')}, ${plural(day.failures, 'failure')}${missed}${average}`
}

/**
 * One bar per UTC day, today on the right, in the heartbeat-bar colours: up, partial (some runs
 * failed), down (all failed) or grey without data; each day's runs, failures and average run time
 * in its tooltip.
 */
export function DayBar({ days, label }: { days: HeartbeatDay[]; label: string }) {
  const count = (state: ReturnType<typeof dayState>) => days.filter((day) => dayState(day) === state).length
  const summary = `${label}: ${count('up')} up, ${count('degraded')} partial, ${count('down')} down, ${count('empty')} without data`
  return (
    <div class="heartbeat-box heartbeat-box-wide">
      <div class="heartbeat heartbeat-wide day-bar" role="img" aria-label={summary}>
        {days.map((day) => (
          <span key={day.date} class={`beat beat-${dayState(day)}`} title={describeDay(day)} data-date={day.date} />
        ))}
      </div>
      {days.length > 0 ? (
        <div class="heartbeat-axis muted">
          <span>{utcDay.format(new Date(`${days[0]!.date}T00:00:00Z`))}</span>
          <span>Today</span>
        </div>
      ) : null}
    </div>
  )
}
