import type { CollectorContext } from '../../../context.ts'
import { publishStagedEvents } from '../../events/publish.ts'
import { invalidateIngestedReads } from '../../read-cache/invalidate.ts'
import { announceRegistrationExpiry } from './announce-expiry.ts'
import { currentBootstrap } from './bootstrap.ts'
import { domainMonitorsWithRegistration } from './domain-monitors.ts'
import { refreshBootstrap } from './refresh-bootstrap.ts'
import { refreshRegistrations } from './refresh-registrations.ts'

/**
 * One run of the registration job: refreshes the bootstrap when due, looks up the domains whose
 * cached registration is due, announces the thresholds crossed, and stales the detail pages of
 * the monitors whose registration was read again. `now` is the job's clock (tests set it).
 */
export async function checkRegistrations(ctx: CollectorContext, now = new Date()) {
  const monitors = await domainMonitorsWithRegistration(ctx.sql)
  // Nothing to look up, nothing to fetch: a Guard watching addresses only never calls IANA.
  if (monitors.length > 0) await refreshBootstrap(ctx, now)
  const lookedUp = await refreshRegistrations(
    ctx,
    await currentBootstrap(ctx.sql),
    monitors.map((monitor) => monitor.domain),
    now,
  )
  const staged = await announceRegistrationExpiry(ctx.sql, monitors, now)
  try {
    await publishStagedEvents(ctx, { ids: staged })
  } catch (error) {
    ctx.log.warn({ err: error }, 'registration events staged but not published yet; the relay publishes them')
  }
  const refreshed = new Set(lookedUp)
  await invalidateIngestedReads({
    ctx,
    organizationIds: [],
    monitorIds: monitors.filter((monitor) => refreshed.has(monitor.domain)).map((monitor) => monitor.id),
  })
  return { lookedUp, staged }
}
