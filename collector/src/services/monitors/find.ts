import { monitorTarget, notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { monitorKinds } from './kinds/index.ts'
import type { AuthType, MonitorKind, MonitorRecord, ServiceProtocol } from './schemas.ts'

export interface MonitorRow {
  id: string
  organization_id: string
  kind: MonitorKind
  name: string
  protocol: ServiceProtocol | null
  target: unknown
  is_api: boolean
  auth_type: AuthType
  credentials_set: boolean
  check_interval: number
  timeout_seconds: number
  enabled: boolean
  locations: string[]
  tags: string[]
  failure_threshold: number
  quorum_percent: number
  degraded_above_ms: number | null
  down_above_ms: number | null
  created_at: Date
  updated_at: Date
}

/** Every column but the sealed credentials, which only the schedule publisher opens. */
export const MONITOR_COLUMNS = `id, organization_id, kind, name, protocol, target, is_api, auth_type,
  credentials IS NOT NULL AS credentials_set, check_interval, timeout_seconds, enabled, locations, tags,
  failure_threshold, quorum_percent, degraded_above_ms, down_above_ms, created_at, updated_at`

export function toMonitorRecord(row: MonitorRow): MonitorRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    kind: row.kind,
    name: row.name,
    protocol: row.protocol,
    target: monitorTarget.parse(row.target),
    isApi: row.is_api,
    authType: row.auth_type,
    credentialsSet: row.credentials_set,
    checkInterval: row.check_interval,
    timeout: row.timeout_seconds,
    enabled: row.enabled,
    locations: row.locations,
    tags: row.tags,
    failureThreshold: row.failure_threshold,
    quorumPercent: row.quorum_percent,
    degradedAboveMs: row.degraded_above_ms,
    downAboveMs: row.down_above_ms,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** A monitor of this kind in one of the caller's organizations; anything else is simply not found. */
export async function findMonitor(sql: Sql, caller: Caller, kind: MonitorKind, id: string): Promise<MonitorRecord> {
  const { rows } = await sql.query<MonitorRow>(
    `SELECT ${MONITOR_COLUMNS} FROM monitoring.monitors WHERE id = $1 AND kind = $2 AND organization_id = ANY($3)`,
    [id, kind, caller.organizationIds],
  )
  if (!rows[0]) throw notFound(monitorKinds[kind].title)
  return toMonitorRecord(rows[0])
}

/** The sealed credentials of a monitor, or null; only schedules and test checks need them. */
export async function findSealedCredentials(sql: Sql, id: string): Promise<string | null> {
  const { rows } = await sql.query<{ credentials: string | null }>(
    'SELECT credentials FROM monitoring.monitors WHERE id = $1',
    [id],
  )
  return rows[0]?.credentials ?? null
}
