import { z } from 'zod'

/**
 * A monitor's schedule as probes read it from the KV bucket `monitors` (key = monitor id).
 * Probes run the monitors whose `locations` name their own location code.
 */
export const httpTarget = z.object({
  kind: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET'),
})

export const monitorConfigV1 = z.object({
  v: z.literal(1),
  id: z.string().min(1),
  organizationId: z.string().min(1),
  target: httpTarget,
  intervalSeconds: z.number().int().min(5).max(86_400),
  timeoutSeconds: z.number().positive().max(300),
  /** Location codes that run this monitor; `*` means every probe. */
  locations: z.array(z.string().min(1)).min(1),
  enabled: z.boolean(),
})

export type MonitorConfig = z.infer<typeof monitorConfigV1>

export const MONITORS_BUCKET = 'monitors'

export function monitorRunsAt(monitor: MonitorConfig, location: string): boolean {
  return monitor.enabled && (monitor.locations.includes('*') || monitor.locations.includes(location))
}

export function encodeMonitorConfig(monitor: MonitorConfig): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(monitorConfigV1.parse(monitor)))
}

export function decodeMonitorConfig(data: Uint8Array): MonitorConfig {
  return monitorConfigV1.parse(JSON.parse(new TextDecoder().decode(data)))
}
