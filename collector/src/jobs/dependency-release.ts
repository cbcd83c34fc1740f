import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { releaseOrphanedSuppressions } from '../services/dependencies/release.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/**
 * Every 30 s, one replica opens incidents for dependents still down on their own checks after
 * their parents came back (see releaseOrphanedSuppressions); the outbox relay publishes the events.
 */
export function scheduleDependencyReleaseJob(ctx: CollectorContext) {
  const task = cron.schedule(
    '*/30 * * * * *',
    async () => {
      try {
        const released = await releaseOrphanedSuppressions(ctx)
        if (released.length > 0) ctx.log.info({ monitors: released }, 'dependents down on their own after recovery')
      } catch (error) {
        ctx.log.error({ err: error }, 'dependency release job failed; the next tick retries')
      }
    },
    {
      name: 'dependency-release',
      noOverlap: true,
      distributed: true,
      runCoordinator: postgresRunCoordinator(ctx.sql, ctx.log),
      distributedLease: 30_000,
      suppressMissedWarning: true,
    },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
