import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { pruneArtifacts } from '../services/artifacts/prune-artifacts.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/** Every hour, one replica removes browser run artifacts past GUARD_ARTIFACT_RETENTION_DAYS. */
export function scheduleArtifactPruneJob(ctx: CollectorContext) {
  const task = cron.schedule(
    '0 17 * * * *',
    async () => {
      try {
        const pruned = await pruneArtifacts({ ctx })
        if (pruned > 0) ctx.log.info({ runs: pruned }, 'browser run artifacts pruned')
      } catch (error) {
        ctx.log.error({ err: error }, 'artifact prune failed; the next hour retries')
      }
    },
    {
      name: 'artifact-prune',
      noOverlap: true,
      distributed: true,
      runCoordinator: postgresRunCoordinator(ctx.sql, ctx.log),
      distributedLease: 3_000_000,
      suppressMissedWarning: true,
    },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
