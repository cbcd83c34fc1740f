import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Envelope } from '../api.ts'
import { formatDateTime, formatMs, Time } from './time.tsx'
import { type Resource, useResource } from './use-api.ts'

/** One check as `GET /api/monitors/recent-checks` answers it. */
export interface RecentCheck {
  timestamp: string
  status: string
  location: string
  responseTime: number
  statusCode: number | null
  errorKind: string | null
  error: string | null
}

export interface MonitorRecentChecks {
  monitorId: string
  kind: 'domain' | 'service' | 'heartbeat'
  uptime24h: number | null
  /** Oldest first. */
  checks: RecentCheck[]
}

/** The most ids the API takes in one batch. */
const BATCH = 200

/** The newest `limit` checks of every monitor in `ids`: one request per 200 monitors, never one per row. */
export async function loadRecentChecks(ids: string[], limit: number): Promise<Map<string, MonitorRecentChecks>> {
  const batches: string[][] = []
  for (let start = 0; start < ids.length; start += BATCH) batches.push(ids.slice(start, start + BATCH))
  const answers = await Promise.all(
    batches.map((batch) =>
      api.get<Envelope<MonitorRecentChecks[]>>('/api/monitors/recent-checks', { ids: batch.join(','), limit }),
    ),
  )
  return new Map(answers.flatMap((answer) => answer.data.map((entry) => [entry.monitorId, entry] as const)))
}

/** Recent checks of the monitors in `ids`, read again when the set of ids changes or on `reload()`. */
export function useRecentChecks(
  ids: string[],
  limit: number,
  organizationId: string,
): Resource<Map<string, MonitorRecentChecks>> {
  const key = ids.join(',')
  return useResource(
    () => (ids.length === 0 ? Promise.resolve(new Map()) : loadRecentChecks(ids, limit)),
    [organizationId, key, limit],
  )
}

/** Checks' latencies for a sparkline, with a gap where the target did not answer. */
export const latencies = (checks: RecentCheck[] | undefined): Array<number | null> =>
  (checks ?? []).map((check) => (check.status === 'down' ? null : check.responseTime))

const WORD: Record<string, string> = { up: 'Up', degraded: 'Degraded', down: 'Down' }

/** What a bar's tooltip says: when, where, how long, and why it was not up. */
function describeCheck(check: RecentCheck): string {
  const reason = check.error ?? (check.statusCode ? `HTTP ${check.statusCode}` : '')
  return [
    formatDateTime(check.timestamp),
    check.location,
    formatMs(check.responseTime),
    `${WORD[check.status] ?? check.status}${reason && check.status !== 'up' ? `: ${reason}` : ''}`,
  ].join(' · ')
}

/** The text a screen reader reads for the whole bar: the counts and the newest check. */
function summaryOf(label: string, checks: RecentCheck[]): string {
  if (checks.length === 0) return `${label}: no checks yet`
  const count = (status: string) => checks.filter((check) => check.status === status).length
  const counts = [`${count('up')} up`, `${count('degraded')} degraded`, `${count('down')} down`]
  return `${label}: last ${checks.length} checks, ${counts.join(', ')}; newest: ${describeCheck(checks[checks.length - 1]!)}`
}

/** A wide bar's narrowest bar and gap, in CSS pixels (styles.css `.heartbeat-wide`). */
const WIDE_MIN_BAR = 6
const WIDE_GAP = 2

/** How many bars of at least WIDE_MIN_BAR fit the box's width, at most `slots` (all of them until measured). */
function useFittingSlots(slots: number, enabled: boolean) {
  const box = useRef<HTMLDivElement>(null)
  const [fit, setFit] = useState(slots)
  useEffect(() => {
    const element = box.current
    if (!enabled || !element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      const width = element.clientWidth
      if (width > 0) setFit(Math.max(1, Math.min(slots, Math.floor((width + WIDE_GAP) / (WIDE_MIN_BAR + WIDE_GAP)))))
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [slots, enabled])
  return { box, fit: enabled ? fit : slots }
}

/**
 * One small bar per check, newest on the right, coloured by result, each with its time, location,
 * latency and reason as a tooltip; slots without a check yet stay grey so every bar of a list keeps
 * its width. `list` bars have a fixed size (a phone shows the newest half); `wide` bars share their
 * box's width, as many as fit (at most `slots`), with the times of the oldest and newest below.
 */
export function HeartbeatBar({
  checks,
  slots,
  label,
  variant = 'list',
}: {
  checks: RecentCheck[] | undefined
  slots: number
  label: string
  variant?: 'list' | 'wide'
}) {
  const { box, fit } = useFittingSlots(slots, variant === 'wide')
  const shown = (checks ?? []).slice(-fit)
  const empty = Math.max(fit - shown.length, 0)
  return (
    <div class={`heartbeat-box heartbeat-box-${variant}`} ref={box}>
      <div
        class={`heartbeat heartbeat-${variant}`}
        role="img"
        aria-label={checks === undefined ? `${label}: loading` : summaryOf(label, shown)}
        aria-busy={checks === undefined}
      >
        {Array.from({ length: empty }, (_, index) => (
          <span key={`empty-${index}`} class="beat beat-empty" />
        ))}
        {shown.map((check) => (
          <span
            key={`${check.timestamp}-${check.location}`}
            class={`beat beat-${WORD[check.status] ? check.status : 'unknown'}`}
            title={describeCheck(check)}
          />
        ))}
      </div>
      {variant === 'wide' && shown.length > 0 ? (
        <div class="heartbeat-axis muted">
          <Time value={shown[0]!.timestamp} />
          <Time value={shown[shown.length - 1]!.timestamp} />
        </div>
      ) : null}
    </div>
  )
}
