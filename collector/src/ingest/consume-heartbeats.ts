import { decodeJson, probeHeartbeatV1, type Stoppable } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { recordHeartbeat } from '../services/probes/record-heartbeat.ts'

/**
 * Probe heartbeats are plain messages (`probes.heartbeat.<location>`), not stream entries: a lost
 * one is replaced by the next within seconds, so they need no durable consumer. A message that
 * breaks the contract is dropped and logged without its body.
 */
export async function consumeHeartbeats(ctx: CollectorContext): Promise<Stoppable> {
  return ctx.bus.subscribe('probes.heartbeat.*', (data, subject) => {
    let heartbeat: ReturnType<typeof probeHeartbeatV1.parse>
    try {
      heartbeat = decodeJson(probeHeartbeatV1, data)
    } catch {
      ctx.log.warn({ subject }, 'dropped a heartbeat that breaks the contract')
      return
    }
    recordHeartbeat(ctx.sql, heartbeat).catch((error: unknown) =>
      ctx.log.warn({ err: error, subject }, 'could not record a probe heartbeat'),
    )
  })
}
