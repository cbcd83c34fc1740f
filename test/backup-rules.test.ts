import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger, migrateTimeSeries, type RelationalStore, type TimeSeriesStore } from '@guard/shared'
import { openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeBackup } from '../bin/commands/backup/make-backup.ts'
import { migrationFolders } from '../bin/commands/backup/manifest.ts'
import { restoreBackup } from '../bin/commands/backup/restore-backup.ts'
import { pruneBackups, scheduleBackups, scheduledBackupName } from '../bin/commands/backup/schedule-backups.ts'

describe('backups: what they refuse, and scheduled ones with retention', () => {
  let root: string
  let stores: { dataDir: string; sql: RelationalStore; timeseries: TimeSeriesStore }
  let backupDir: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-backup-rules-'))
    const dataDir = join(root, 'data')
    await mkdir(dataDir)
    await writeFile(join(dataDir, 'secret.key'), 'a secret key of at least thirty-two characters')
    const sql = await openTestRelationalStore()
    await sql.query(`CREATE TABLE guard_migrations (service text, name text, checksum text);
      INSERT INTO guard_migrations VALUES ('collector', '001_monitoring.sql', 'x')`)
    const timeseries = await openTestTimeSeriesStore()
    await migrateTimeSeries(timeseries, { service: 'collector', directory: migrationFolders.clickhouse.collector })
    stores = { dataDir, sql, timeseries }
    backupDir = join(root, 'backup')
    await makeBackup(stores, backupDir)
  })

  afterAll(async () => {
    await stores?.timeseries.close()
    await stores?.sql.close()
    await rm(root, { recursive: true, force: true })
  })

  it('refuses to write a backup into a directory that holds something', async () => {
    await expect(makeBackup(stores, backupDir)).rejects.toThrow(
      'is not empty: a backup goes into a new or empty directory',
    )
  })

  it('refuses a backup from a newer Guard, naming the migrations this version does not know', async () => {
    const newer = join(root, 'newer')
    await mkdir(newer)
    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8'))
    manifest.migrations.postgres.push({ service: 'collector', name: '999_from_the_future.sql' })
    await writeFile(join(newer, 'manifest.json'), JSON.stringify(manifest))
    await expect(restoreBackup(newer, { dataDir: join(root, 'a'), database: 'guard' })).rejects.toThrow(
      'comes from a newer Guard (0.1.0): this version does not know collector/999_from_the_future.sql',
    )
  })

  it('refuses a damaged backup before it writes anything', async () => {
    const damaged = join(root, 'damaged')
    await mkdir(damaged)
    await writeFile(join(damaged, 'manifest.json'), await readFile(join(backupDir, 'manifest.json')))
    await expect(restoreBackup(damaged, { dataDir: join(root, 'b'), database: 'guard' })).rejects.toThrow(
      /is damaged: \S+ is missing/,
    )
    await expect(readdir(join(root, 'b'))).rejects.toThrow('ENOENT')
  })

  it('prunes scheduled backups to the newest N and leaves other entries alone', async () => {
    const dir = join(root, 'pruned')
    const names = [0, 1, 2, 3].map((day) => scheduledBackupName(new Date(Date.UTC(2026, 0, 1 + day))))
    for (const name of [...names, 'notes']) await mkdir(join(dir, name), { recursive: true })
    expect(await pruneBackups(dir, 2)).toEqual(names.slice(0, 2))
    expect((await readdir(dir)).sort()).toEqual([...names.slice(2), 'notes'])
  })

  it('writes a backup at each tick and keeps the newest GUARD_BACKUP_KEEP', async () => {
    const dir = join(root, 'scheduled')
    const written: string[] = []
    // The tick and the pruning are under test here; a real backup is, above and end to end.
    const job = scheduleBackups({
      cron: '* * * * * *',
      dir,
      keep: 2,
      log: createLogger({ name: 'backup-test', level: 'silent', pretty: false }),
      backup: async (to) => {
        await mkdir(to, { recursive: true })
        written.push(to)
        return { to, bytes: 0, files: 0, ms: 0 }
      },
    })
    try {
      const deadline = Date.now() + 10_000
      while (written.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
      // The third tick prunes right after its backup.
      await new Promise((resolve) => setTimeout(resolve, 300))
    } finally {
      await job.stop()
    }
    expect(written.length).toBeGreaterThanOrEqual(3)
    const newest = written.slice(-2).map((path) => path.slice(dir.length + 1))
    expect((await readdir(dir)).sort()).toEqual(newest)
  })
})
