import type { Sql } from '@guard/shared'
import type { Caller, CollectorContext } from '../context.ts'
import { createDomain } from '../services/domains/create.ts'
import { getDomain } from '../services/domains/get.ts'
import type { DomainDetail } from '../services/domains/schemas.ts'
import { createService } from '../services/services/create.ts'
import { getService } from '../services/services/get.ts'
import type { ServiceView } from '../services/services/schemas.ts'
import type { MonitorTarget } from './provider.ts'

/**
 * The one place integrations touch the monitors layer: turning a provider item into a domain or a
 * service, and asking whether a monitor created earlier still exists. When domains and services
 * move behind one monitors service, only this file changes.
 */
export type MonitorRef = { type: 'domain'; id: string } | { type: 'service'; id: string }
export type CreatedMonitor =
  | { type: 'domain'; id: string; domain: DomainDetail }
  | { type: 'service'; id: string; service: ServiceView }

export interface MonitorSettings {
  name: string
  checkInterval?: number | undefined
  timeout?: number | undefined
}

export async function createMonitorFor(
  ctx: CollectorContext,
  caller: Caller,
  organizationId: string,
  target: MonitorTarget,
  settings: MonitorSettings,
): Promise<CreatedMonitor> {
  const timing = {
    ...(settings.checkInterval !== undefined ? { checkInterval: settings.checkInterval } : {}),
    ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
  }
  if (target.type === 'domain') {
    const domain = await createDomain(ctx, caller, { url: target.url, name: settings.name, ...timing }, organizationId)
    return { type: 'domain', id: domain.id, domain: await getDomain(ctx, caller, domain.id) }
  }
  const service = await createService(
    ctx,
    caller,
    {
      name: settings.name,
      protocol: target.protocol,
      protocolConfig: { host: target.host, port: target.port },
      ...timing,
    },
    organizationId,
  )
  return { type: 'service', id: service.id, service: await getService(ctx, caller, service.id) }
}

/** Which of these monitors still exist in the organization (a user may have deleted some). */
export async function existingMonitors(sql: Sql, organizationId: string, refs: MonitorRef[]): Promise<Set<string>> {
  const ids = (type: MonitorRef['type']) => refs.filter((ref) => ref.type === type).map((ref) => ref.id)
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM monitoring.domains WHERE organization_id = $1 AND id = ANY($2)
     UNION ALL
     SELECT id FROM monitoring.services WHERE organization_id = $1 AND id = ANY($3)`,
    [organizationId, ids('domain'), ids('service')],
  )
  return new Set(rows.map((row) => row.id))
}
