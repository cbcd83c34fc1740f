import type { AgentHeartbeat } from '../contracts/agent-heartbeat.ts'

/** A heartbeat body as the agent sends it, with the given usage percentages. */
export function sampleHeartbeat(
  deviceId: string,
  usage: { cpu?: number; memory?: number; disk?: number } = {},
  overrides: Partial<AgentHeartbeat> = {},
): AgentHeartbeat {
  return {
    device_id: deviceId,
    metrics: {
      cpu: { usage_percent: usage.cpu ?? 10, cores: 4 },
      memory: { total_gb: 16, used_gb: 16 * ((usage.memory ?? 40) / 100), usage_percent: usage.memory ?? 40 },
      disk: { total_gb: 100, used_gb: usage.disk ?? 30, usage_percent: usage.disk ?? 30 },
      load: { one: 0.5, five: 0.4, fifteen: 0.3 },
    },
    interval_seconds: 30,
    ...overrides,
  }
}
