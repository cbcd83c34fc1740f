import { type DeviceHealth, notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { HealthHold } from './health.ts'
import type { DeviceDetail, DeviceView, Thresholds } from './schemas.ts'

export interface DeviceRow {
  id: string
  organization_id: string
  name: string
  tags: string[]
  token_prefix: string
  cpu_warning: number
  cpu_critical: number
  memory_warning: number
  memory_critical: number
  disk_warning: number
  disk_critical: number
  cpu_hold_seconds: number
  memory_hold_seconds: number
  disk_hold_seconds: number
  is_online: boolean
  last_seen: Date | null
  last_heartbeat_at: Date | null
  interval_seconds: number
  health_status: DeviceHealth
  /** Per metric; a metric missing from it has had no heartbeat since the hold rule came in. */
  health_hold: Partial<HealthHold>
  state_version: number
  created_at: Date
  updated_at: Date
  system: SystemSnapshot | null
}

/** The agent's system information as stored in the device's snapshot (the wire's snake_case). */
export interface SystemSnapshot {
  hostname: string
  platform: string
  os?: string
  architecture: string
  cpu_model: string
  cpu_cores: number
  total_memory: number
  total_disk: number
  agent_version: string
  uptime_seconds: number
}

export const DEVICE_COLUMNS = `d.id, d.organization_id, d.name, d.tags, d.token_prefix, d.cpu_warning, d.cpu_critical,
  d.memory_warning, d.memory_critical, d.disk_warning, d.disk_critical, d.cpu_hold_seconds, d.memory_hold_seconds,
  d.disk_hold_seconds, d.is_online, d.last_seen, d.last_heartbeat_at, d.interval_seconds, d.health_status,
  d.health_hold, d.state_version, d.created_at, d.updated_at, s.system`
export const DEVICE_FROM = 'monitoring.devices d LEFT JOIN monitoring.device_snapshots s ON s.device_id = d.id'

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString())

export const thresholdsOf = (row: DeviceRow): Thresholds => ({
  cpu: { warning: row.cpu_warning, critical: row.cpu_critical, holdSeconds: row.cpu_hold_seconds },
  memory: { warning: row.memory_warning, critical: row.memory_critical, holdSeconds: row.memory_hold_seconds },
  disk: { warning: row.disk_warning, critical: row.disk_critical, holdSeconds: row.disk_hold_seconds },
})

export function toDeviceView(row: DeviceRow): DeviceView {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    hostname: row.system?.hostname ?? null,
    platform: row.system?.platform ?? null,
    tags: row.tags,
    isOnline: row.is_online,
    lastSeen: iso(row.last_seen),
    healthStatus: row.health_status,
    createdAt: new Date(row.created_at).toISOString(),
  }
}

export function toDeviceDetail(row: DeviceRow): DeviceDetail {
  const system = row.system
  return {
    ...toDeviceView(row),
    architecture: system?.architecture ?? null,
    os: system?.os ?? null,
    cpu: system?.cpu_model ?? null,
    cpuCores: system?.cpu_cores ?? null,
    totalMemory: system?.total_memory ?? null,
    totalDisk: system?.total_disk ?? null,
    agentVersion: system?.agent_version ?? null,
    uptimeSeconds: system?.uptime_seconds ?? null,
    heartbeatInterval: row.interval_seconds,
    thresholds: thresholdsOf(row),
    tokenPrefix: row.token_prefix,
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** A device of one of the caller's organizations; any other is simply not found. */
export async function findDevice(sql: Sql, caller: Caller, id: string): Promise<DeviceRow> {
  const { rows } = await sql.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE d.id = $1 AND d.organization_id = ANY($2)`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Device')
  return rows[0]
}
