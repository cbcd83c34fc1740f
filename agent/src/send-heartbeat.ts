import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { AgentHeartbeat } from '@guard/shared'

const compress = promisify(gzip)

export type SendOutcome =
  | { kind: 'stored' }
  /** Worth trying again later: the collector is unreachable, overloaded or asks to wait. */
  | { kind: 'retry'; reason: string; afterMs?: number }
  /** The collector will never take this heartbeat (malformed, too large, another device's). */
  | { kind: 'rejected'; status: number; reason: string }

/**
 * POST /agent with the device token, gzip-compressed. Never throws: every failure is an outcome
 * the caller decides on, so a collector error cannot crash the agent.
 */
export async function sendHeartbeat(
  collectorUrl: string,
  token: string,
  heartbeat: AgentHeartbeat,
  timeoutMs = 15_000,
): Promise<SendOutcome> {
  try {
    const response = await fetch(new URL('/agent', collectorUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: await compress(JSON.stringify(heartbeat)),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text().catch(() => '')
    if (response.ok) return { kind: 'stored' }
    const reason = `collector answered ${response.status}: ${text.slice(0, 200)}`
    if (response.status === 429 || response.status === 408 || response.status >= 500) {
      const retryAfter = Number(response.headers.get('retry-after'))
      return { kind: 'retry', reason, ...(retryAfter > 0 ? { afterMs: retryAfter * 1000 } : {}) }
    }
    // A wrong or regenerated token is the operator's to fix; keep the heartbeats until then.
    if (response.status === 401) return { kind: 'retry', reason }
    return { kind: 'rejected', status: response.status, reason }
  } catch (error) {
    return { kind: 'retry', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
}
