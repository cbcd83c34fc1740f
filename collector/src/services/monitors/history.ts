import type { CollectorContext } from '../../context.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import type { MonitorRecord } from './schemas.ts'

interface ResultRow {
  id: string
  location: string
  status: string
  response_time_ms: number
  status_code: number
  error: string
  error_kind: string
  ts: number
  dns_ms: number | null
  connect_ms: number | null
  tls_ms: number | null
  first_byte_ms: number | null
  transfer_ms: number | null
  query_ms: number | null
}

/** Where a check's time went, in milliseconds; a phase the check did not have is absent. */
export interface Phases {
  dnsMs?: number
  connectMs?: number
  tlsMs?: number
  firstByteMs?: number
  transferMs?: number
  queryMs?: number
}

export interface HistoryRow {
  id: string
  location: string
  status: string
  responseTime: number
  statusCode: number
  timestamp: string
  /** Null when the check was up. */
  error: string | null
  errorKind: string | null
  /** Null for checks that report no phases (TCP, ICMP, …). */
  phases: Phases | null
}

function phasesOf(row: ResultRow): Phases | null {
  const phases: Phases = {}
  if (row.dns_ms !== null) phases.dnsMs = row.dns_ms
  if (row.connect_ms !== null) phases.connectMs = row.connect_ms
  if (row.tls_ms !== null) phases.tlsMs = row.tls_ms
  if (row.first_byte_ms !== null) phases.firstByteMs = row.first_byte_ms
  if (row.transfer_ms !== null) phases.transferMs = row.transfer_ms
  if (row.query_ms !== null) phases.queryMs = row.query_ms
  return Object.keys(phases).length > 0 ? phases : null
}

/**
 * A monitor's results, newest first, every location mixed (or `limit` per location with
 * `perLocation`), each with why it was not up.
 */
export async function monitorHistory(
  ctx: CollectorContext,
  monitor: MonitorRecord,
  query: { windowSeconds?: number; limit: number; perLocation?: boolean },
): Promise<HistoryRow[]> {
  const rows = await selectRows<ResultRow>(
    ctx.timeseries,
    `SELECT id, location, status, response_time_ms, status_code, error, error_kind,
            dns_ms, connect_ms, tls_ms, first_byte_ms, transfer_ms, query_ms,
            toUnixTimestamp64Milli(started_at) AS ts
       FROM check_results FINAL
      WHERE organization_id = {org:String} AND monitor_id = {id:String}
        AND started_at >= now64(3) - toIntervalSecond({window:UInt32})
      ORDER BY ${query.perLocation ? 'location, ' : ''}started_at DESC, id DESC
      LIMIT {limit:UInt32}${query.perLocation ? ' BY location' : ''}`,
    {
      org: monitor.organizationId,
      id: monitor.id,
      window: query.windowSeconds ?? 400 * 86_400,
      limit: query.limit,
    },
  )
  return rows.map((row) => ({
    id: row.id,
    location: row.location,
    status: row.status,
    responseTime: row.response_time_ms,
    statusCode: row.status_code,
    timestamp: isoFromMillis(row.ts),
    error: row.status === 'up' ? null : row.error || null,
    errorKind: row.status === 'up' ? null : row.error_kind || null,
    phases: phasesOf(row),
  }))
}
