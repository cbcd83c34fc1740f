import { notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { ServiceProtocol, ServiceRecord } from './schemas.ts'

export interface ServiceRow {
  id: string
  organization_id: string
  name: string
  protocol: ServiceProtocol
  host: string
  port: number | null
  path: string | null
  check_interval: number
  timeout_seconds: number
  enabled: boolean
  locations: string[]
  created_at: Date
  updated_at: Date
}

export const SERVICE_COLUMNS =
  'id, organization_id, name, protocol, host, port, path, check_interval, timeout_seconds, enabled, locations, created_at, updated_at'

export function toServiceRecord(row: ServiceRow): ServiceRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    protocol: row.protocol,
    protocolConfig: {
      host: row.host,
      ...(row.port === null ? {} : { port: row.port }),
      ...(row.path === null ? {} : { path: row.path }),
    },
    checkInterval: row.check_interval,
    timeout: row.timeout_seconds,
    enabled: row.enabled,
    locations: row.locations,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** A service of one of the caller's organizations; any other is simply not found. */
export async function findService(sql: Sql, caller: Caller, id: string): Promise<ServiceRecord> {
  const { rows } = await sql.query<ServiceRow>(
    `SELECT ${SERVICE_COLUMNS} FROM monitoring.services WHERE id = $1 AND organization_id = ANY($2)`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Service')
  return toServiceRecord(rows[0])
}

export async function findAllServices(sql: Sql): Promise<ServiceRecord[]> {
  const { rows } = await sql.query<ServiceRow>(`SELECT ${SERVICE_COLUMNS} FROM monitoring.services`)
  return rows.map(toServiceRecord)
}
