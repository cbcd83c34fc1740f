import type { Caller, CollectorContext } from '../../context.ts'
import { assertKnownLocations } from './known-locations.ts'
import type { MonitorKind } from './schemas.ts'

/** What a create or update would store, as the checks before a write see it. */
export interface ProposedMonitor {
  kind: MonitorKind
  organizationId: string
  checkInterval: number
  locations: string[]
  /** Undefined on create. */
  currentId?: string
}

/**
 * The rules a monitor write must pass beyond its own schema that need no transaction: the
 * locations must exist. Plan limits are enforced around the write itself (enforcePlan), since
 * counting monitors and inserting one must happen under one lock.
 */
export async function admitMonitor(ctx: CollectorContext, _caller: Caller, proposed: ProposedMonitor): Promise<void> {
  await assertKnownLocations(ctx, proposed.locations)
}
