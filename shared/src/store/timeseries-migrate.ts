import { changedMigrationError, newerSchemaError, readMigrationFiles } from './migration-files.ts'
import type { TimeSeriesStore } from './types.ts'

/** ReplacingMergeTree: two processes that both apply a file leave one row per file after merges. */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS guard_migrations (
  service String,
  name String,
  checksum String,
  applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = ReplacingMergeTree(applied_at) ORDER BY (service, name)`

/**
 * A ClickHouse server takes one statement per request, so a file is split where a line ends
 * with `;`. Comment-only pieces are dropped.
 */
export function splitStatements(text: string): string[] {
  return text
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--')))
}

/**
 * Applies the folder's NNN_name.sql files in name order to the store's database and returns the
 * names applied by this call. ClickHouse has no transactions or locks: write every statement
 * so it can run twice (`IF NOT EXISTS`), because two processes starting at once may both run it.
 * A database a newer release migrated is refused before anything runs.
 */
export async function migrateTimeSeries(
  store: TimeSeriesStore,
  options: { service: string; directory: string },
): Promise<string[]> {
  const files = await readMigrationFiles(options.directory)
  await store.client.command({ query: CREATE_TABLE })
  const result = await store.client.query({
    query: 'SELECT name, checksum FROM guard_migrations FINAL WHERE service = {service:String}',
    query_params: { service: options.service },
    format: 'JSONEachRow',
  })
  const done = new Map((await result.json<{ name: string; checksum: string }>()).map((row) => [row.name, row.checksum]))
  const newer = newerSchemaError({ engine: 'ClickHouse', ...options }, files, [...done.keys()])
  if (newer) throw newer
  const applied: string[] = []
  for (const file of files) {
    const checksum = done.get(file.name)
    if (checksum === file.checksum) continue
    if (checksum !== undefined) throw changedMigrationError(options.service, file, options.directory)
    for (const statement of splitStatements(file.text)) await store.client.command({ query: statement })
    await store.client.insert({
      table: 'guard_migrations',
      values: [{ service: options.service, name: file.name, checksum: file.checksum }],
      format: 'JSONEachRow',
    })
    applied.push(file.name)
  }
  return applied
}
