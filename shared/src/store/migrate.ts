import { changedMigrationError, newerSchemaError, readMigrationFiles } from './migration-files.ts'
import type { Sql } from './types.ts'

/**
 * One key for every service: the services may share a database, and guard_migrations itself
 * must be created under the lock (concurrent CREATE TABLE IF NOT EXISTS can still collide).
 */
const MIGRATION_LOCK = 0x6775617264 // "guard"

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS guard_migrations (
  service text NOT NULL,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service, name)
)`

/**
 * Applies the folder's NNN_name.sql files in name order, each in its own transaction, and
 * returns the names applied by this call. Two processes starting at once serialize on an
 * advisory lock and re-check inside it, so each file runs once. A database a newer release
 * migrated is refused before anything runs.
 */
export async function migrate(sql: Sql, options: { service: string; directory: string }): Promise<string[]> {
  const files = await readMigrationFiles(options.directory)
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await tx.query(CREATE_TABLE)
    const { rows } = await tx.query<{ name: string }>('SELECT name FROM guard_migrations WHERE service = $1', [
      options.service,
    ])
    const newer = newerSchemaError(
      { engine: 'PostgreSQL', ...options },
      files,
      rows.map((row) => row.name),
    )
    if (newer) throw newer
  })
  const applied: string[] = []
  for (const file of files) {
    const ran = await sql.transaction(async (tx) => {
      // Released at commit or rollback, so a failed file never leaves the lock held.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      await tx.query(CREATE_TABLE)
      const { rows } = await tx.query<{ checksum: string }>(
        'SELECT checksum FROM guard_migrations WHERE service = $1 AND name = $2',
        [options.service, file.name],
      )
      const done = rows[0]
      if (done) {
        if (done.checksum !== file.checksum) throw changedMigrationError(options.service, file, options.directory)
        return false
      }
      await tx.query(file.text)
      await tx.query('INSERT INTO guard_migrations (service, name, checksum) VALUES ($1, $2, $3)', [
        options.service,
        file.name,
        file.checksum,
      ])
      return true
    })
    if (ran) applied.push(file.name)
  }
  return applied
}
