import { encodeMonitorConfig, type MonitorConfig, sealTargetAuth } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { openCredentials } from './credentials.ts'
import type { MonitorRecord } from './schemas.ts'

/**
 * The schedule probes read from the KV bucket `monitors`. Credentials go sealed for probes when
 * GUARD_PROBE_CREDENTIALS_KEY is set, in the clear otherwise (README "Credentials").
 */
export function monitorConfigOf(
  monitor: MonitorRecord,
  sealed: string | null,
  keys: Pick<CollectorContext, 'credentialKey' | 'probeCredentialsKey'>,
): MonitorConfig {
  const target =
    monitor.target.kind === 'http'
      ? sealTargetAuth(
          {
            ...monitor.target,
            ...(monitor.isApi ? { expectJson: true } : {}),
            ...(sealed ? { auth: openCredentials(keys.credentialKey, sealed) } : {}),
          },
          keys.probeCredentialsKey,
        )
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
  await ctx.monitors.put(monitor.id, encodeMonitorConfig(monitorConfigOf(monitor, sealed, ctx)))
}
