import { notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { DomainRecord } from './schemas.ts'

interface DomainRow {
  id: string
  organization_id: string
  url: string
  name: string
  check_interval: number
  timeout_seconds: number
  enabled: boolean
  locations: string[]
  created_at: Date
}

export const DOMAIN_COLUMNS =
  'id, organization_id, url, name, check_interval, timeout_seconds, enabled, locations, created_at'

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
    createdAt: new Date(row.created_at).toISOString(),
  }
}

/** A domain of the caller's organization; another organization's domain is simply not found. */
export async function findDomain(sql: Sql, caller: Caller, id: string): Promise<DomainRecord> {
  const { rows } = await sql.query<DomainRow>(
    `SELECT ${DOMAIN_COLUMNS} FROM monitoring.domains WHERE id = $1 AND organization_id = $2`,
    [id, caller.organizationId],
  )
  if (!rows[0]) throw notFound('Domain')
  return toDomainRecord(rows[0])
}

export async function findDomains(
  sql: Sql,
  caller: Caller,
  filter: { search?: string | undefined },
): Promise<DomainRecord[]> {
  const { rows } = await sql.query<DomainRow>(
    `SELECT ${DOMAIN_COLUMNS} FROM monitoring.domains
      WHERE organization_id = $1
        AND ($2::text IS NULL OR name ILIKE '%' || $2 || '%' OR url ILIKE '%' || $2 || '%')
      ORDER BY created_at DESC, id DESC`,
    [caller.organizationId, filter.search ?? null],
  )
  return rows.map(toDomainRecord)
}

/** Every domain of every organization, for re-publishing schedules at start. */
export async function findAllDomains(sql: Sql): Promise<DomainRecord[]> {
  const { rows } = await sql.query<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM monitoring.domains`)
  return rows.map(toDomainRecord)
}
