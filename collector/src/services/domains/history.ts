import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { monitorHistory } from '../monitors/history.ts'
import { rangeSeconds, type TimeRange } from './schemas.ts'

/** Newest first, every location mixed, each row with why it was not up. */
export async function domainHistory(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  query: { range: TimeRange; limit: number },
) {
  const monitor = await findMonitor(ctx.sql, caller, 'domain', id)
  const rows = await monitorHistory(ctx, monitor, { windowSeconds: rangeSeconds[query.range], limit: query.limit })
  return rows.map((row) => ({
    id: row.id,
    domainId: id,
    status: row.status,
    responseTime: row.responseTime,
    statusCode: row.statusCode,
    timestamp: row.timestamp,
    location: row.location,
    ...(row.phases ? { phases: row.phases } : {}),
    ...(row.errorKind === null ? {} : { errorKind: row.errorKind }),
    ...(row.error === null ? {} : { error: row.error }),
  }))
}
