import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from '@guard/shared'
import cron from 'node-cron'
import type { BackupMade } from './make-backup.ts'

/** `guard-backup-20260127T031500123Z`: name order is age order, and nothing else matches. */
const SCHEDULED = /^guard-backup-\d{8}T\d{9}Z$/
export const scheduledBackupName = (at: Date) => `guard-backup-${at.toISOString().replaceAll(/[-:.]/g, '')}`

/** Removes all but the newest `keep` scheduled backups in `dir`; other entries there are left alone. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const backups = (await readdir(dir)).filter((name) => SCHEDULED.test(name)).sort()
  const old = backups.slice(0, Math.max(0, backups.length - keep))
  for (const name of old) await rm(join(dir, name), { recursive: true, force: true })
  return old
}

/**
 * Every tick of GUARD_BACKUP_CRON, a backup into a new timestamped directory under
 * GUARD_BACKUP_DIR, then the oldest pruned down to GUARD_BACKUP_KEEP. A failed backup leaves no
 * directory and prunes nothing, so the last good ones stay.
 */
export function scheduleBackups(input: {
  cron: string
  dir: string
  keep: number
  log: Logger
  backup: (to: string) => Promise<BackupMade>
}) {
  const task = cron.schedule(
    input.cron,
    async () => {
      try {
        const made = await input.backup(join(input.dir, scheduledBackupName(new Date())))
        const pruned = await pruneBackups(input.dir, input.keep)
        input.log.info({ backup: made, pruned }, 'scheduled backup written')
      } catch (error) {
        input.log.error({ err: error }, 'scheduled backup failed; the next tick tries again')
      }
    },
    { name: 'backup', noOverlap: true },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
