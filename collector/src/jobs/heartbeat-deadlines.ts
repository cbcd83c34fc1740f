import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { detectHeartbeatDeadlines } from '../services/heartbeats/detect-deadlines.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/**
 * Every tick of GUARD_HEARTBEAT_DEADLINE_CRON, one replica declares the heartbeats whose deadline
 * passed missed, and the runs past their maximum duration too long (see detectHeartbeatDeadlines).
 */
export function scheduleHeartbeatDeadlineJob(ctx: CollectorContext) {
  const task = cron.schedule(
    ctx.env.GUARD_HEARTBEAT_DEADLINE_CRON,
    async () => {
      try {
        const results = await detectHeartbeatDeadlines(ctx)
        if (results.length > 0) {
          ctx.log.info(
            { heartbeats: results.map((result) => [result.monitorId, result.errorKind]) },
            'heartbeats missed a deadline',
          )
        }
      } catch (error) {
        ctx.log.error({ err: error }, 'heartbeat deadline job failed; the next tick retries')
      }
    },
    {
      name: 'heartbeat-deadlines',
      noOverlap: true,
      distributed: true,
      runCoordinator: postgresRunCoordinator(ctx.sql, ctx.log),
      distributedLease: 60_000,
      suppressMissedWarning: true,
    },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
