import type { AgentMetrics } from './collect-metrics.ts'

/** POST /agent with the device's own bearer token; a non-2xx answer is an error for the caller. */
export async function sendHeartbeat(
  collectorUrl: string,
  device: { id: string; token: string },
  metrics: AgentMetrics,
  timestamp: Date,
): Promise<void> {
  const response = await fetch(new URL('/agent', collectorUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ device_id: device.id, metrics, timestamp: timestamp.toISOString() }),
    signal: AbortSignal.timeout(10_000),
  })
  if (!response.ok) throw new Error(`collector answered ${response.status} to the heartbeat`)
}
