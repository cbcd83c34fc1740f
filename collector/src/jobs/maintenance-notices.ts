import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { announceMaintenance } from '../services/status-pages/subscribers/announce-maintenance.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/** Every minute, one replica announces the maintenance windows that entered a page's notice hours. */
export function scheduleMaintenanceNoticeJob(ctx: CollectorContext) {
  const task = cron.schedule(
    '30 * * * * *',
    async () => {
      try {
        const queued = await announceMaintenance({ ctx })
        if (queued > 0) ctx.log.info({ queued }, 'maintenance announced to status page subscribers')
      } catch (error) {
        ctx.log.error({ err: error }, 'maintenance notice job failed; the next tick retries')
      }
    },
    {
      name: 'maintenance-notices',
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
