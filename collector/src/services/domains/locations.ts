import type { Caller, CollectorContext } from '../../context.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { findDomain } from './find.ts'
import { rangeSeconds, type TimeRange } from './schemas.ts'

interface LocationRow {
  location: string
  status: string
  response_time_ms: number
  ts: string
}

type Point = { timestamp: string; status: string; responseTime: number }

/** Newest first within each location, at most `limit` points per location. */
export async function domainLocations(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  query: { range: TimeRange; limit: number },
): Promise<Record<string, Point[]>> {
  const domain = await findDomain(ctx.sql, caller, id)
  const rows = await selectRows<LocationRow>(
    ctx.timeseries,
    `SELECT location, status, response_time_ms, toUnixTimestamp64Milli(started_at) AS ts
       FROM check_results FINAL
      WHERE organization_id = {org:String} AND monitor_id = {id:String}
        AND started_at >= now64(3) - toIntervalSecond({window:UInt32})
      ORDER BY location, started_at DESC, id DESC
      LIMIT {limit:UInt32} BY location`,
    { org: domain.organizationId, id, window: rangeSeconds[query.range], limit: query.limit },
  )
  const byLocation: Record<string, Point[]> = {}
  for (const row of rows) {
    const points = byLocation[row.location] ?? []
    points.push({ timestamp: isoFromMillis(row.ts), status: row.status, responseTime: row.response_time_ms })
    byLocation[row.location] = points
  }
  return byLocation
}
