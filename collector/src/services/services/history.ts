import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { monitorHistory } from '../monitors/history.ts'

/** The newest results first, every location mixed; `message` is the probe's error or a short verdict. */
export async function serviceHistory(ctx: CollectorContext, caller: Caller, id: string, limit: number) {
  const monitor = await findMonitor(ctx.sql, caller, 'service', id)
  const rows = await monitorHistory(ctx, monitor, { limit })
  return rows.map((row) => ({
    id: row.id,
    serviceId: id,
    status: row.status,
    responseTime: row.responseTime,
    timestamp: row.timestamp,
    message: row.error ?? (row.statusCode ? `${row.status} (${row.statusCode})` : row.status),
    location: row.location,
    ...(row.phases ? { phases: row.phases } : {}),
    ...(row.errorKind === null ? {} : { errorKind: row.errorKind }),
  }))
}
