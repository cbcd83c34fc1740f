import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { checkRegistrations } from '../services/domains/registration/check-registrations.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/**
 * Every tick of GUARD_DOMAIN_REGISTRATION_CRON, one replica refreshes the domains' registration
 * expiry over RDAP (those not looked up for a day) and announces the thresholds crossed (see
 * checkRegistrations).
 */
export function scheduleDomainRegistrationJob(ctx: CollectorContext) {
  const task = cron.schedule(
    ctx.env.GUARD_DOMAIN_REGISTRATION_CRON,
    async () => {
      try {
        const { lookedUp, staged } = await checkRegistrations(ctx)
        if (lookedUp.length > 0 || staged.length > 0)
          ctx.log.info({ lookedUp: lookedUp.length, events: staged.length }, 'domain registrations checked')
      } catch (error) {
        ctx.log.error({ err: error }, 'domain registration job failed; the next tick retries')
      }
    },
    {
      name: 'domain-registration',
      noOverlap: true,
      distributed: true,
      runCoordinator: postgresRunCoordinator(ctx.sql, ctx.log),
      // 500 lookups four at a time within their timeouts fit in this lease.
      distributedLease: 30 * 60_000,
      suppressMissedWarning: true,
    },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
