import type { HttpTarget, Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { httpOptionsView } from '../monitors/http-options.ts'
import type { MonitorRecord } from '../monitors/schemas.ts'
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

/** The columns of the `monitoring.domains` view that list pages read. */
export const DOMAIN_COLUMNS =
  'id, organization_id, url, name, check_interval, timeout_seconds, enabled, locations, tags, created_at, updated_at'

/** A monitor as the spec's domain shape sees it: an HTTP check of `url`. */
export function domainOf(monitor: MonitorRecord): DomainRecord {
  const target = monitor.target as HttpTarget
  return {
    id: monitor.id,
    organizationId: monitor.organizationId,
    url: target.url,
    name: monitor.name,
    checkInterval: monitor.checkInterval,
    timeout: monitor.timeout,
    enabled: monitor.enabled,
    locations: monitor.locations,
    tags: monitor.tags,
    isApi: monitor.isApi,
    authType: monitor.authType,
    credentialsSet: monitor.credentialsSet,
    options: httpOptionsView(target),
    ...(monitor.downAboveMs === null ? {} : { downAboveMs: monitor.downAboveMs }),
    createdAt: monitor.createdAt,
    updatedAt: monitor.updatedAt,
  }
}

/** A row of the list query, which reads fewer columns than a full domain has. */
export function toDomainListRecord(row: DomainRow) {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    checkInterval: row.check_interval,
    enabled: row.enabled,
    tags: row.tags,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** A domain of one of the caller's organizations; any other domain is simply not found. */
export async function findDomain(sql: Sql, caller: Caller, id: string): Promise<DomainRecord> {
  return domainOf(await findMonitor(sql, caller, 'domain', id))
}
