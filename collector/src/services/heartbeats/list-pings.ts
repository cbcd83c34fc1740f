import type { Caller, CollectorContext } from '../../context.ts'
import { selectRows } from '../results/query.ts'
import { findHeartbeat } from './find.ts'
import type { HeartbeatPingEntry } from './schemas.ts'

interface PingRow {
  id: string
  type: HeartbeatPingEntry['type']
  exit_code: number | null
  rid: string
  received_ms: string
  duration_ms: number | null
  method: string
  source_ip: string
  user_agent: string
  body: string
}

/** The heartbeat's run log: its newest pings with their bodies, newest first. */
export async function listHeartbeatPings({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string; limit: number }
}): Promise<HeartbeatPingEntry[]> {
  const heartbeat = await findHeartbeat(ctx.sql, ctx.credentialKey, caller, input.id)
  const rows = await selectRows<PingRow>(
    ctx.timeseries,
    `SELECT id, type, exit_code, rid, toUnixTimestamp64Milli(received_at) AS received_ms, duration_ms, method,
            source_ip, user_agent, body
       FROM heartbeat_pings FINAL
      WHERE organization_id = {org:String} AND monitor_id = {monitor:String}
      ORDER BY received_at DESC, id DESC LIMIT {limit:UInt32}`,
    { org: heartbeat.organizationId, monitor: heartbeat.id, limit: input.limit },
  )
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    exitCode: row.exit_code,
    rid: row.rid,
    receivedAt: new Date(Number(row.received_ms)).toISOString(),
    durationMs: row.duration_ms,
    method: row.method,
    sourceIp: row.source_ip,
    userAgent: row.user_agent,
    body: row.body,
  }))
}
