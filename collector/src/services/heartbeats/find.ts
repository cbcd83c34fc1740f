import { notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { HeartbeatSchedule } from './schedule.ts'
import type { HeartbeatRecord } from './schemas.ts'
import { openPingToken } from './token.ts'

export interface HeartbeatRow {
  id: string
  organization_id: string
  name: string
  tags: string[]
  enabled: boolean
  every_seconds: number | null
  cron: string | null
  timezone: string
  grace_seconds: number
  max_duration_seconds: number | null
  token_sealed: string
  next_due_at: Date
  last_ping_at: Date | null
  last_ping_type: string | null
  running_since: Date | null
  created_at: Date
  updated_at: Date
}

export const HEARTBEAT_COLUMNS = `m.id, m.organization_id, m.name, m.tags, m.enabled, h.every_seconds, h.cron, h.timezone,
  h.grace_seconds, h.max_duration_seconds, h.token_sealed, h.next_due_at, h.last_ping_at, h.last_ping_type,
  (SELECT to_timestamp(min(value::float8) / 1000) FROM jsonb_each_text(h.open_runs)) AS running_since,
  m.created_at, m.updated_at`

export const HEARTBEAT_FROM = 'monitoring.monitors m JOIN monitoring.heartbeats h ON h.monitor_id = m.id'

const iso = (date: Date | null) => (date === null ? null : new Date(date).toISOString())

export function toHeartbeatRecord(row: HeartbeatRow, key: Buffer): HeartbeatRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    every: row.every_seconds,
    cron: row.cron,
    timezone: row.timezone,
    grace: row.grace_seconds,
    maxDuration: row.max_duration_seconds,
    tags: row.tags,
    enabled: row.enabled,
    token: openPingToken(key, row.token_sealed),
    nextDueAt: new Date(row.next_due_at).toISOString(),
    lastPingAt: iso(row.last_ping_at),
    lastPingType: row.last_ping_type,
    runningSince: iso(row.running_since),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

export const scheduleOf = (heartbeat: Pick<HeartbeatRecord, 'every' | 'cron' | 'timezone'>): HeartbeatSchedule =>
  heartbeat.cron !== null ? { cron: heartbeat.cron, timezone: heartbeat.timezone } : { every: heartbeat.every! }

/** A heartbeat in one of the caller's organizations; anything else is simply not found. */
export async function findHeartbeat(sql: Sql, key: Buffer, caller: Caller, id: string): Promise<HeartbeatRecord> {
  const { rows } = await sql.query<HeartbeatRow>(
    `SELECT ${HEARTBEAT_COLUMNS} FROM ${HEARTBEAT_FROM} WHERE m.id = $1 AND m.organization_id = ANY($2)`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Heartbeat')
  return toHeartbeatRecord(rows[0], key)
}
