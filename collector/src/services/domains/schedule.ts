import { encodeMonitorConfig, type KvBucket, type MonitorConfig } from '@guard/shared'
import type { DomainRecord } from './schemas.ts'

export function monitorConfigOf(domain: DomainRecord): MonitorConfig {
  return {
    v: 1,
    id: domain.id,
    organizationId: domain.organizationId,
    target: { kind: 'http', url: domain.url, method: 'GET' },
    intervalSeconds: domain.checkInterval,
    timeoutSeconds: domain.timeout,
    locations: domain.locations,
    enabled: domain.enabled,
  }
}

/** Puts a domain's schedule where probes watch for it; they pick it up within seconds. */
export async function scheduleDomain(monitors: KvBucket, domain: DomainRecord): Promise<void> {
  await monitors.put(domain.id, encodeMonitorConfig(monitorConfigOf(domain)))
}
