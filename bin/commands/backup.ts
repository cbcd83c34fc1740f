import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { commonEnv, dataDirOwner, GuardError, parseEnv, storeEnv } from '@guard/shared'
import { z } from 'zod'
import { parseArgs, UsageError } from '../cli-kit.ts'
import { requestBackup } from './backup/control-socket.ts'
import { type BackupMade, makeBackup } from './backup/make-backup.ts'
import { restoreBackup } from './backup/restore-backup.ts'
import { openStores } from './open-stores.ts'

const backupEnv = z.object({ GUARD_DATA_DIR: commonEnv.GUARD_DATA_DIR, ...storeEnv })

export const backupUsage = `Usage: guard backup --to DIR

Writes a backup of GUARD_DATA_DIR into DIR (new or empty): PGlite's data directory, chDB's
tables, the embedded bus with its consumers' positions, the probe's outbox, secret.key and
credentials.json, with a manifest of checksums and schema migrations. While \`guard start\` runs
on that directory, it makes the backup itself, asked over GUARD_DATA_DIR/control.sock; otherwise
this command opens the stores. With DATABASE_URL or CLICKHOUSE_URL, only the files Guard keeps
itself are saved: back the servers up with pg_dump and ClickHouse BACKUP (see the README).`

export const restoreUsage = `Usage: guard restore --from DIR

Restores the backup in DIR into GUARD_DATA_DIR, which must be empty or absent, after checking
every file against the manifest and refusing a backup from a newer Guard. Embedded mode only.`

const describe = (made: BackupMade) =>
  `backup written to ${made.to} (${made.files} files, ${(made.bytes / 1e6).toFixed(1)} MB, ${(made.ms / 1000).toFixed(1)} s)`

export async function runBackup(args: string[], env: NodeJS.ProcessEnv = process.env, print = console.log) {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } }, usage: backupUsage })
  if (!values.to) throw new UsageError('--to DIR is required')
  const config = parseEnv('guard backup', backupEnv, env)
  const to = resolve(values.to)
  if (dataDirOwner(config.GUARD_DATA_DIR)) {
    print(describe(await requestBackup(config.GUARD_DATA_DIR, to)))
    return
  }
  // Opening the stores of a directory that holds none would make new, empty ones.
  if (!config.DATABASE_URL && !existsSync(join(config.GUARD_DATA_DIR, 'pglite'))) {
    throw new GuardError('NOT_FOUND', `${resolve(config.GUARD_DATA_DIR)} holds no Guard data (no pglite directory)`)
  }
  const { sql, timeseries } = await openStores(config)
  try {
    print(describe(await makeBackup({ dataDir: config.GUARD_DATA_DIR, sql, timeseries }, to)))
  } finally {
    await timeseries.close()
    await sql.close()
  }
}

export async function runRestore(args: string[], env: NodeJS.ProcessEnv = process.env, print = console.log) {
  const { values } = parseArgs({ args, options: { from: { type: 'string' } }, usage: restoreUsage })
  if (!values.from) throw new UsageError('--from DIR is required')
  const config = parseEnv('guard restore', backupEnv, env)
  if (config.DATABASE_URL || config.CLICKHOUSE_URL) {
    throw new UsageError(
      'restore loads PGlite and chDB: unset DATABASE_URL and CLICKHOUSE_URL (servers are restored with pg_restore and ClickHouse RESTORE)',
    )
  }
  const manifest = await restoreBackup(values.from, {
    dataDir: config.GUARD_DATA_DIR,
    database: config.CLICKHOUSE_DATABASE,
  })
  print(`restored the backup of ${manifest.createdAt} into ${resolve(config.GUARD_DATA_DIR)}`)
}
