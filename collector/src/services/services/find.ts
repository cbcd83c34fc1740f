import type { Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import type { MonitorRecord } from '../monitors/schemas.ts'
import type { ServiceRecord } from './schemas.ts'
import { protocolConfigOf } from './target.ts'

/** A monitor as the spec's service shape sees it. */
export function serviceOf(monitor: MonitorRecord): ServiceRecord {
  return {
    id: monitor.id,
    organizationId: monitor.organizationId,
    name: monitor.name,
    // Services never hold a flow or a browser script (synthetic checks do); the shared target type allows them.
    protocol:
      monitor.protocol ??
      (monitor.target.kind === 'http' || monitor.target.kind === 'flow' || monitor.target.kind === 'browser'
        ? 'http'
        : monitor.target.kind),
    protocolConfig: protocolConfigOf(monitor),
    checkInterval: monitor.checkInterval,
    timeout: monitor.timeout,
    enabled: monitor.enabled,
    locations: monitor.locations,
    tags: monitor.tags,
    degradedAboveMs: monitor.degradedAboveMs,
    downAboveMs: monitor.downAboveMs,
    createdAt: monitor.createdAt,
    updatedAt: monitor.updatedAt,
  }
}

/** A service of one of the caller's organizations; any other is simply not found. */
export async function findService(sql: Sql, caller: Caller, id: string): Promise<ServiceRecord> {
  return serviceOf(await findMonitor(sql, caller, 'service', id))
}
