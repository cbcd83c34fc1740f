import { encodeMonitorConfig, type MonitorConfig } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { openCredentials } from './credentials.ts'
import type { MonitorRecord } from './schemas.ts'

/**
 * The schedule probes read from the KV bucket `monitors`. Probes are trusted with credentials
 * (they send them): the config carries them in the clear, so the bucket must be readable by
 * probes and the collector only (README "Credentials").
 */
export function monitorConfigOf(monitor: MonitorRecord, sealed: string | null, key: Buffer): MonitorConfig {
  const target =
    monitor.target.kind === 'http'
      ? {
          ...monitor.target,
          ...(monitor.isApi ? { expectJson: true } : {}),
          ...(sealed ? { auth: openCredentials(key, sealed) } : {}),
        }
      : monitor.target
  return {
    v: 1,
    id: monitor.id,
    organizationId: monitor.organizationId,
    target,
    intervalSeconds: monitor.checkInterval,
    timeoutSeconds: monitor.timeout,
    locations: monitor.locations,
    enabled: monitor.enabled,
  }
}

/** Puts a monitor's schedule where probes watch for it; they pick it up within seconds. */
export async function scheduleMonitor(ctx: CollectorContext, monitor: MonitorRecord, sealed: string | null) {
  await ctx.monitors.put(monitor.id, encodeMonitorConfig(monitorConfigOf(monitor, sealed, ctx.credentialKey)))
}
