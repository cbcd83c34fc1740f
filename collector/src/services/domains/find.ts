import { notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { DomainRecord } from './schemas.ts'

export interface DomainRow {
  id: string
  organization_id: string
  url: string
  name: string
  check_interval: number
  timeout_seconds: number
  enabled: boolean
  locations: string[]
  tags: string[]
  created_at: Date
  updated_at: Date
}

export const DOMAIN_COLUMNS =
  'id, organization_id, url, name, check_interval, timeout_seconds, enabled, locations, tags, created_at, updated_at'

export function toDomainRecord(row: DomainRow): DomainRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    name: row.name,
    checkInterval: row.check_interval,
    timeout: row.timeout_seconds,
    enabled: row.enabled,
    locations: row.locations,
    tags: row.tags,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** A domain of one of the caller's organizations; any other domain is simply not found. */
export async function findDomain(sql: Sql, caller: Caller, id: string): Promise<DomainRecord> {
  const { rows } = await sql.query<DomainRow>(
    `SELECT ${DOMAIN_COLUMNS} FROM monitoring.domains WHERE id = $1 AND organization_id = ANY($2)`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Domain')
  return toDomainRecord(rows[0])
}

/** Every domain of every organization, for re-publishing schedules at start. */
export async function findAllDomains(sql: Sql): Promise<DomainRecord[]> {
  const { rows } = await sql.query<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM monitoring.domains`)
  return rows.map(toDomainRecord)
}
