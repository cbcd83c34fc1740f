import type { Stoppable } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/** Plain subject every replica listens on; the payload is a JSON array of scopes (organization ids, see below). */
export const READ_INVALIDATION_SUBJECT = 'collector.reads.invalidate'

/** What ingested results of an organization's monitors change: its organization-wide reads. */
export const ingestScope = (organizationId: string) => `ingest:${organizationId}`
/** What ingested results of one monitor change: the reads of that monitor's pages. */
export const monitorScope = (monitorId: string) => `monitor:${monitorId}`
/**
 * What ingested results change only when they change a monitor's state (up, down, first result):
 * reads derived from states alone (groups), which most batches leave as they were.
 */
export const stateScope = (organizationId: string) => `states:${organizationId}`
/** Scopes only ingest moves: an entry stale in these alone may be served while it is recomputed. */
export const isIngestScope = (scope: string) =>
  scope.startsWith('ingest:') || scope.startsWith('monitor:') || scope.startsWith('states:')

/**
 * Marks what `organizationIds` read as stale here at once, and on every other replica as soon as
 * the bus delivers the notice. A replica that misses a notice (bus outage) serves the old entry
 * until its TTL runs out, never longer.
 */
export async function invalidateReads({
  ctx,
  organizationIds,
}: {
  ctx: CollectorContext
  organizationIds: Iterable<string>
}): Promise<void> {
  await announce(ctx, [...new Set(organizationIds)])
}

/**
 * After ingested results are summarized: stales the organization-wide reads of `organizationIds` and
 * the pages of `monitorIds` only, here and on every replica; other monitors' pages stay cached. The
 * reads derived from states alone are staled only for `stateChanged` (organizations with a monitor
 * whose state the results changed).
 */
export async function invalidateIngestedReads({
  ctx,
  organizationIds,
  monitorIds,
  stateChanged = [],
}: {
  ctx: CollectorContext
  organizationIds: Iterable<string>
  monitorIds: Iterable<string>
  stateChanged?: Iterable<string>
}): Promise<void> {
  await announce(ctx, [
    ...new Set([...organizationIds].map(ingestScope)),
    ...new Set([...monitorIds].map(monitorScope)),
    ...new Set([...stateChanged].map(stateScope)),
  ])
}

async function announce(ctx: CollectorContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  ctx.reads.invalidate(ids)
  try {
    await ctx.bus.emit(READ_INVALIDATION_SUBJECT, Buffer.from(JSON.stringify(ids)))
  } catch (error) {
    ctx.log.warn({ err: error }, 'read-cache invalidation not announced: other replicas rely on the TTL')
  }
}

/** Applies other replicas' (and this one's) invalidation notices to this replica's cache. */
export function followReadInvalidations(ctx: CollectorContext): Promise<Stoppable> {
  return ctx.bus.subscribe(READ_INVALIDATION_SUBJECT, (data) => {
    try {
      const ids: unknown = JSON.parse(Buffer.from(data).toString('utf8'))
      if (Array.isArray(ids)) ctx.reads.invalidate(ids.filter((id): id is string => typeof id === 'string'))
    } catch {
      ctx.log.warn('malformed read-cache invalidation ignored')
    }
  })
}
