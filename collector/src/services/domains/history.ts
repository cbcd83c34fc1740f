import type { Caller, CollectorContext } from '../../context.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { findDomain } from './find.ts'
import { rangeSeconds, type TimeRange } from './schemas.ts'

interface HistoryRow {
  id: string
  status: string
  response_time_ms: number
  status_code: number
  ts: string
}

/** Newest first, every location mixed. */
export async function domainHistory(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  query: { range: TimeRange; limit: number },
) {
  const domain = await findDomain(ctx.sql, caller, id)
  const rows = await selectRows<HistoryRow>(
    ctx.timeseries,
    `SELECT id, status, response_time_ms, status_code, toUnixTimestamp64Milli(started_at) AS ts
       FROM check_results FINAL
      WHERE organization_id = {org:String} AND monitor_id = {id:String}
        AND started_at >= now64(3) - toIntervalSecond({window:UInt32})
      ORDER BY started_at DESC, id DESC
      LIMIT {limit:UInt32}`,
    { org: domain.organizationId, id, window: rangeSeconds[query.range], limit: query.limit },
  )
  return rows.map((row) => ({
    id: row.id,
    domainId: id,
    status: row.status,
    responseTime: row.response_time_ms,
    statusCode: row.status_code,
    timestamp: isoFromMillis(row.ts),
  }))
}
