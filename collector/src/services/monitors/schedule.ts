import {
  encodeMonitorConfig,
  type HttpAuth,
  type MonitorConfig,
  type MonitorTarget,
  sealTargetAuth,
  sealTargetSecrets,
} from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { openCredentials, openSecrets } from './credentials.ts'
import type { MonitorRecord } from './schemas.ts'

/**
 * The target as a probe receives it: HTTP credentials or a protocol's secrets sealed for probes
 * when GUARD_PROBE_CREDENTIALS_KEY is set, in the clear otherwise (README "Credentials").
 */
export function probeTarget(
  target: MonitorTarget,
  credentials: { isApi: boolean; auth?: HttpAuth | undefined; secrets?: Record<string, unknown> | undefined },
  probeCredentialsKey: Buffer | undefined,
): MonitorTarget {
  if (target.kind === 'http') {
    return sealTargetAuth(
      {
        ...target,
        ...(credentials.isApi ? { expectJson: true } : {}),
        ...(credentials.auth ? { auth: credentials.auth } : {}),
      },
      probeCredentialsKey,
    )
  }
  if (!credentials.secrets) return target
  return sealTargetSecrets({ ...target, secrets: credentials.secrets } as MonitorTarget, probeCredentialsKey)
}

/** The schedule probes read from the KV bucket `monitors`; `sealed` is the credentials column. */
export function monitorConfigOf(
  monitor: MonitorRecord,
  sealed: string | null,
  keys: Pick<CollectorContext, 'credentialKey' | 'probeCredentialsKey'>,
): MonitorConfig {
  const http = monitor.target.kind === 'http'
  const credentials = {
    isApi: monitor.isApi,
    ...(sealed && http ? { auth: openCredentials(keys.credentialKey, sealed) } : {}),
    ...(sealed && !http ? { secrets: openSecrets(keys.credentialKey, sealed) } : {}),
  }
  return {
    v: 1,
    id: monitor.id,
    organizationId: monitor.organizationId,
    target: probeTarget(monitor.target, credentials, keys.probeCredentialsKey),
    intervalSeconds: monitor.checkInterval,
    timeoutSeconds: monitor.timeout,
    locations: monitor.locations,
    enabled: monitor.enabled,
    ...(monitor.degradedAboveMs === null ? {} : { degradedAboveMs: monitor.degradedAboveMs }),
    ...(monitor.downAboveMs === null ? {} : { downAboveMs: monitor.downAboveMs }),
  }
}

/** Puts a monitor's schedule where probes watch for it; they pick it up within seconds. */
export async function scheduleMonitor(ctx: CollectorContext, monitor: MonitorRecord, sealed: string | null) {
  await ctx.monitors.put(monitor.id, encodeMonitorConfig(monitorConfigOf(monitor, sealed, ctx)))
}
