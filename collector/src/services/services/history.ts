import type { Caller, CollectorContext } from '../../context.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { findService } from './find.ts'

interface Row {
  id: string
  status: string
  response_time_ms: number
  error: string
  status_code: number
  ts: number
}

/** The newest results first, every location mixed; `message` is the probe's error or a short verdict. */
export async function serviceHistory(ctx: CollectorContext, caller: Caller, id: string, limit: number) {
  const service = await findService(ctx.sql, caller, id)
  const rows = await selectRows<Row>(
    ctx.timeseries,
    `SELECT id, status, response_time_ms, error, status_code, toUnixTimestamp64Milli(started_at) AS ts
       FROM check_results FINAL
      WHERE organization_id = {org:String} AND monitor_id = {id:String}
      ORDER BY started_at DESC, id DESC
      LIMIT {limit:UInt32}`,
    { org: service.organizationId, id, limit },
  )
  return rows.map((row) => ({
    id: row.id,
    serviceId: id,
    status: row.status,
    responseTime: row.response_time_ms,
    timestamp: isoFromMillis(row.ts),
    message: row.error || (row.status_code ? `${row.status} (${row.status_code})` : row.status),
  }))
}
