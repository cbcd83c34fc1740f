import type { Sql } from '@guard/shared'
import type { Caller, CollectorContext } from '../context.ts'
import { domainMonitorInput } from '../services/domains/create.ts'
import { getDomain } from '../services/domains/get.ts'
import type { DomainDetail } from '../services/domains/schemas.ts'
import { createMonitor } from '../services/monitors/create.ts'
import { serviceMonitorInput } from '../services/services/create.ts'
import { getService } from '../services/services/get.ts'
import type { ServiceView } from '../services/services/schemas.ts'
import type { MonitorTarget } from './provider.ts'

/**
 * The one place integrations touch the monitor layer (`services/monitors`): turning a provider
 * item into a domain or a service, and asking whether a monitor created earlier still exists.
 * Nothing else in the integrations knows how monitors are stored.
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
  // The spec's shapes validate the item as a user's body would be, then one monitor layer stores it.
  if (target.type === 'domain') {
    const input = domainMonitorInput({ url: target.url, name: settings.name, ...timing }, organizationId)
    const monitor = await createMonitor({ ctx, caller, input })
    return { type: 'domain', id: monitor.id, domain: await getDomain(ctx, caller, monitor.id) }
  }
  const input = serviceMonitorInput(
    {
      name: settings.name,
      protocol: target.protocol,
      protocolConfig: { host: target.host, port: target.port },
      ...timing,
    },
    organizationId,
  )
  const monitor = await createMonitor({ ctx, caller, input })
  return { type: 'service', id: monitor.id, service: await getService(ctx, caller, monitor.id) }
}

/** Which of these monitors still exist in the organization (a user may have deleted some). */
export async function existingMonitors(sql: Sql, organizationId: string, refs: MonitorRef[]): Promise<Set<string>> {
  const { rows } = await sql.query<{ id: string }>(
    'SELECT id FROM monitoring.monitors WHERE organization_id = $1 AND id = ANY($2)',
    [organizationId, refs.map((ref) => ref.id)],
  )
  return new Set(rows.map((row) => row.id))
}
