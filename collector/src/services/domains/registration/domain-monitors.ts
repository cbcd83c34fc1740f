import type { Sql } from '@guard/shared'
import { registrableDomainOfUrl } from './registrable-domain.ts'

export interface DomainMonitor {
  id: string
  organizationId: string
  name: string
  url: string
  /** The registrable domain under the URL's host. */
  domain: string
}

/** Enabled domain monitors whose host has a registration (not an IP address or a reserved name). */
export async function domainMonitorsWithRegistration(sql: Sql): Promise<DomainMonitor[]> {
  const { rows } = await sql.query<{ id: string; organization_id: string; name: string; url: string }>(
    `SELECT id, organization_id, name, target ->> 'url' AS url FROM monitoring.monitors
      WHERE kind = 'domain' AND enabled ORDER BY id`,
  )
  return rows.flatMap((row) => {
    const domain = registrableDomainOfUrl(row.url)
    return domain ? [{ id: row.id, organizationId: row.organization_id, name: row.name, url: row.url, domain }] : []
  })
}
