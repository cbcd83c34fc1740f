import type { CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { listHeartbeats } from '../heartbeats/list.ts'
import { assertTagsSignedIn } from '../tags/schemas.ts'
import type { Audience } from './audience.ts'
import { readPublicView } from './public-view.ts'
import type { HeartbeatsStatusResult } from './schemas.ts'

/**
 * The organization's heartbeat monitors (jobs that report in): state, why they are down, last ping
 * and next expected time; public: the heartbeats its public status pages show. Ping URLs are left
 * out, since an assistant's answer may be shared further than the API's.
 */
export async function readHeartbeatsStatus({
  ctx,
  audience,
  tags = [],
}: {
  ctx: CollectorContext
  audience: Audience
  tags?: string[]
}): Promise<HeartbeatsStatusResult> {
  assertTagsSignedIn(audience, tags)
  const heartbeats =
    audience.kind === 'public'
      ? (await readPublicView(ctx, audience.organizationId)).components
          .filter((component) => component.kind === 'heartbeat')
          .map((component) => ({
            id: null,
            name: component.name,
            status: component.status,
            reason: null,
            lastPingAt: null,
            nextExpectedAt: null,
          }))
      : (
          await Promise.all(
            audience.callers.map((caller) => {
              requirePermission(caller, 'heartbeats:read')
              return listHeartbeats({ ctx, caller, input: { organizationId: caller.organizationId, tags } })
            }),
          )
        )
          .flat()
          .map((heartbeat) => ({
            id: heartbeat.id,
            name: heartbeat.name,
            status: heartbeat.status,
            reason: heartbeat.status === 'down' ? (heartbeat.lastError?.kind ?? null) : null,
            lastPingAt: heartbeat.lastPing?.at ?? null,
            nextExpectedAt: heartbeat.enabled ? heartbeat.nextExpectedAt : null,
          }))
  const up = heartbeats.filter((heartbeat) => heartbeat.status === 'up').length
  const down = heartbeats.filter((heartbeat) => heartbeat.status === 'down').length
  return { heartbeats, total: heartbeats.length, up, down }
}
