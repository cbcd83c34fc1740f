import type { Sql } from '@guard/shared'
import { lastErrorOf } from '../domains/metrics.ts'
import { readMonitorStates } from '../monitor-state/read.ts'
import type { ServiceRecord, ServiceView } from './schemas.ts'

/**
 * Services as the API shows them, with the state machine's status and failure count, the locations
 * when limited, why it last failed and where it is failing now.
 */
export async function viewServices(sql: Sql, services: ServiceRecord[]): Promise<ServiceView[]> {
  const states = await readMonitorStates(
    sql,
    services.map((service) => service.id),
  )
  return services.map((service) => {
    const state = states.get(service.id)
    return {
      id: service.id,
      name: service.name,
      protocol: service.protocol,
      status: state?.status ?? 'unknown',
      lastCheck: state?.lastCheckAt ?? null,
      checkInterval: service.checkInterval,
      timeout: service.timeout,
      enabled: service.enabled,
      consecutiveFailures: state?.consecutiveFailures ?? 0,
      protocolConfig: service.protocolConfig,
      createdAt: service.createdAt,
      ...(service.degradedAboveMs === null ? {} : { degradedAboveMs: service.degradedAboveMs }),
      ...(service.downAboveMs === null ? {} : { downAboveMs: service.downAboveMs }),
      // Beyond the spec's fields, only what carries information (README "Services").
      ...(service.locations.includes('*') ? {} : { locations: service.locations }),
      tags: service.tags,
      ...(state?.lastError ? { lastError: lastErrorOf(state.lastError) } : {}),
      ...(state?.failingLocations.length ? { failingLocations: state.failingLocations } : {}),
    }
  })
}
