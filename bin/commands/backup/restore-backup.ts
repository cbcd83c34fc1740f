import { copyFile, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  GuardError,
  lockDataDir,
  migrateTimeSeries,
  openPglite,
  openTimeSeriesStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { CHDB_DIR, copyTree, FILES_DIR, PGLITE_DUMP, sqlString, tableFile } from './backup-files.ts'
import { MANIFEST, type Manifest, migrationFolders, readManifest, sha256Of, unknownMigrations } from './manifest.ts'

export interface RestoreTarget {
  dataDir: string
  /** chDB database the restored Guard reads (CLICKHOUSE_DATABASE). */
  database: string
}

async function checkFiles(from: string, manifest: Manifest) {
  for (const [name, expected] of Object.entries(manifest.files)) {
    const path = join(from, name)
    const bytes = await stat(path).then(
      (entry) => entry.size,
      () => -1,
    )
    if (bytes !== expected.bytes || (await sha256Of(path)) !== expected.sha256) {
      throw new GuardError(
        'VALIDATION_ERROR',
        `the backup in ${from} is damaged: ${name} ${bytes < 0 ? 'is missing' : 'does not match its checksum'}`,
      )
    }
  }
}

async function checkEmpty(dataDir: string) {
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  if (entries.length > 0) {
    throw new GuardError(
      'CONFLICT',
      `the data directory ${dataDir} is not empty: a backup is restored into a new or empty directory only (move it aside, or set GUARD_DATA_DIR to another)`,
    )
  }
}

/** The backup's tables as its own migrations made them: the code's later ones run at the first start. */
async function createTablesOfBackup(timeseries: TimeSeriesStore, manifest: Manifest) {
  const folder = await mkdtemp(join(tmpdir(), 'guard-restore-'))
  try {
    for (const { service, name } of manifest.migrations.clickhouse) {
      const source = migrationFolders.clickhouse[service as keyof typeof migrationFolders.clickhouse]
      await copyFile(join(source, name), join(folder, name))
    }
    await migrateTimeSeries(timeseries, { service: 'collector', directory: folder })
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/**
 * Loads each table's rows as they were saved. Materialized views are dropped meanwhile and made
 * again after: the rollups are restored from their own files, and re-deriving them from the raw
 * rows as well would count every result twice.
 */
async function loadChdb(from: string, dataDir: string, database: string, manifest: Manifest) {
  const timeseries = await openTimeSeriesStore({ database, dataDir })
  try {
    await createTablesOfBackup(timeseries, manifest)
    const views = await (
      await timeseries.client.query({
        query: `SELECT name, create_table_query FROM system.tables
          WHERE database = currentDatabase() AND engine = 'MaterializedView'`,
        format: 'JSONEachRow',
      })
    ).json<{ name: string; create_table_query: string }>()
    for (const view of views) await timeseries.client.command({ query: `DROP VIEW ${view.name}` })
    for (const file of await readdir(join(from, CHDB_DIR))) {
      const table = file.slice(0, -tableFile('').length)
      await timeseries.client.command({
        query: `INSERT INTO ${table} SELECT * FROM file(${sqlString(join(from, CHDB_DIR, file))}, 'Native')`,
      })
    }
    for (const view of views) await timeseries.client.command({ query: view.create_table_query })
  } finally {
    await timeseries.close()
  }
}

/**
 * Restores the backup in `from` into an empty or absent data directory, after checking every
 * file against the manifest and that this code knows every migration the backup's stores went
 * through. The restored Guard starts as after a stop at the moment of the backup.
 */
export async function restoreBackup(from: string, target: RestoreTarget): Promise<Manifest> {
  const source = resolve(from)
  const dataDir = resolve(target.dataDir)
  const manifest = await readManifest(join(source, MANIFEST))
  const unknown = await unknownMigrations(manifest)
  if (unknown.length > 0) {
    throw new GuardError(
      'CONFLICT',
      `the backup in ${source} comes from a newer Guard (${manifest.guardVersion}): this version does not know ${unknown.join(', ')}; restore it with that version or later`,
    )
  }
  await checkFiles(source, manifest)
  await checkEmpty(dataDir)
  const lock = lockDataDir(dataDir, 'restore')
  try {
    await copyTree(join(source, FILES_DIR), dataDir)
    if (manifest.files[PGLITE_DUMP]) {
      const dump = await readFile(join(source, PGLITE_DUMP))
      const sql = await openPglite({
        dataDir: join(dataDir, 'pglite'),
        loadDataDir: new Blob([dump], { type: 'application/x-gzip' }),
      })
      await sql.close()
    }
    if (Object.keys(manifest.files).some((name) => name.startsWith(`${CHDB_DIR}/`))) {
      await loadChdb(source, dataDir, target.database, manifest)
    }
  } finally {
    lock.release()
  }
  return manifest
}
