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
 * Every rule a monitor write must pass beyond its own schema, in one place: the locations must
 * exist, and the organization's plan limits (monitors, minimum interval, locations) belong here.
 */
export async function admitMonitor(ctx: CollectorContext, _caller: Caller, proposed: ProposedMonitor): Promise<void> {
  await assertKnownLocations(ctx, proposed.locations)
}
