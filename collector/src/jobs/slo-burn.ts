import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { evaluateBurnAlerts } from '../services/slos/burn.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/**
 * Every minute (the SLOs' resolution), one replica judges every SLO's burn alerts and announces
 * the ones that start or stop firing (see evaluateBurnAlerts); the incident engine opens and
 * resolves their incidents.
 */
export function scheduleSloBurnJob(ctx: CollectorContext) {
  const task = cron.schedule(
    '0 * * * * *',
    async () => {
      try {
        const staged = await evaluateBurnAlerts(ctx)
        if (staged.length > 0) ctx.log.info({ events: staged }, 'SLO burn alerts changed')
      } catch (error) {
        ctx.log.error({ err: error }, 'SLO burn job failed; the next tick retries')
      }
    },
    {
      name: 'slo-burn',
      noOverlap: true,
      distributed: true,
      runCoordinator: postgresRunCoordinator(ctx.sql, ctx.log),
      distributedLease: 55_000,
      suppressMissedWarning: true,
    },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
