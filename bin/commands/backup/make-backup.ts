import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { GuardError, type RelationalStore, type TimeSeriesStore } from '@guard/shared'
import { byName, CHDB_DIR, copyTree, FILES_DIR, fileSums, PGLITE_DUMP, sqlString, tableFile } from './backup-files.ts'
import { type AppliedMigration, BACKUP_FORMAT, guardVersion, MANIFEST, writeManifest } from './manifest.ts'

export interface BackupStores {
  dataDir: string
  sql: RelationalStore
  timeseries: TimeSeriesStore
}

export interface BackupMade {
  to: string
  bytes: number
  files: number
  ms: number
}

async function isEmptyOrAbsent(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length === 0
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
}

/**
 * What Guard keeps beside its stores: the secret key (it unseals identity's signing keys, monitor
 * credentials and integration secrets), the credentials file, each probe's outbox and monitor
 * cache, and the embedded bus. Copied first and in this order, outbox before bus and each bus
 * stream's consumer positions before its messages, so every position saved is at or before what
 * the stores dumped after it hold: a restored Guard redelivers the rest, and the collector skips
 * results it already stored and the state machine results it has seen (see consumeResults).
 */
async function copyGuardFiles(dataDir: string, to: string) {
  await mkdir(to, { recursive: true, mode: 0o700 })
  for (const name of await readdir(dataDir)) {
    if (name.startsWith('probe-')) await copyTree(join(dataDir, name), join(to, name))
  }
  for (const name of ['secret.key', 'credentials.json']) await copyTree(dataDir, to, (path) => basename(path) !== name)
  const streams = join(dataDir, 'bus', 'streams')
  const streamNames = await readdir(streams).catch(() => [])
  for (const stream of streamNames) {
    await copyTree(join(streams, stream, 'consumers'), join(to, 'bus', 'streams', stream, 'consumers'))
  }
  await copyTree(join(dataDir, 'bus'), join(to, 'bus'), (path) => basename(path) === 'consumers')
}

async function dumpPglite(sql: RelationalStore, to: string): Promise<AppliedMigration[]> {
  if (!sql.dumpDataDir) return []
  const [dump, migrations] = await Promise.all([
    sql.dumpDataDir(),
    sql.query<AppliedMigration>('SELECT service, name FROM guard_migrations'),
  ])
  await writeFile(join(to, PGLITE_DUMP), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 })
  return migrations.rows.sort(byName)
}

/**
 * Each table of chDB's database in ClickHouse's Native format (aggregate states included),
 * zstd-compressed. Rollups go before the raw tables they are fed from: a result stored meanwhile
 * is then in the raw rows only, and a redelivery skips it; the other order would count it twice.
 */
async function exportChdb(timeseries: TimeSeriesStore, to: string): Promise<AppliedMigration[]> {
  if (timeseries.engine !== 'chdb') return []
  const dir = join(to, CHDB_DIR)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const tables = await (
    await timeseries.client.query({
      query: `SELECT name FROM system.tables WHERE database = currentDatabase()
        AND engine NOT LIKE '%View' AND name != 'guard_migrations'
        ORDER BY engine = 'AggregatingMergeTree' DESC, name`,
      format: 'JSONEachRow',
    })
  ).json<{ name: string }>()
  for (const { name } of tables) {
    await timeseries.client.command({
      query: `INSERT INTO FUNCTION file(${sqlString(join(dir, tableFile(name)))}, 'Native') SELECT * FROM ${name}`,
    })
  }
  const migrations = await (
    await timeseries.client.query({ query: 'SELECT service, name FROM guard_migrations FINAL', format: 'JSONEachRow' })
  ).json<AppliedMigration>()
  return migrations.sort(byName)
}

/**
 * Writes a backup of the embedded Guard whose stores are given into `to`, an empty or absent
 * directory: built beside it under a temporary name and renamed into place when whole, so a
 * directory named `to` is always a complete backup. With PostgreSQL or a ClickHouse server, only
 * what Guard keeps itself is saved (their own tools back them up: see the README).
 */
export async function makeBackup(stores: BackupStores, to: string): Promise<BackupMade> {
  const started = Date.now()
  const target = resolve(to)
  if (!(await isEmptyOrAbsent(target))) {
    throw new GuardError('CONFLICT', `${target} is not empty: a backup goes into a new or empty directory`)
  }
  await mkdir(dirname(target), { recursive: true, mode: 0o700 })
  const partial = `${target}.partial-${process.pid}-${started}`
  await mkdir(partial, { mode: 0o700 })
  try {
    await copyGuardFiles(stores.dataDir, join(partial, FILES_DIR))
    const postgres = await dumpPglite(stores.sql, partial)
    const clickhouse = await exportChdb(stores.timeseries, partial)
    const files = await fileSums(partial)
    await writeManifest(join(partial, MANIFEST), {
      format: BACKUP_FORMAT,
      guardVersion: await guardVersion(),
      createdAt: new Date(started).toISOString(),
      migrations: { postgres, clickhouse },
      files,
    })
    await rm(target, { recursive: true, force: true })
    await rename(partial, target)
    const sizes = Object.values(files)
    return {
      to: target,
      bytes: sizes.reduce((sum, file) => sum + file.bytes, 0),
      files: sizes.length,
      ms: Date.now() - started,
    }
  } catch (error) {
    await rm(partial, { recursive: true, force: true })
    throw error
  }
}
