import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface MigrationFile {
  name: string
  checksum: string
  text: string
}

/** `NNN_name.sql`: the number keeps name order and apply order the same. */
const MIGRATION_NAME = /^\d+_[\w.-]+\.sql$/

/** The `.sql` files of a migration folder, in name order, with a checksum of each file's bytes. */
export async function readMigrationFiles(directory: string): Promise<MigrationFile[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort()
  const misnamed = names.filter((name) => !MIGRATION_NAME.test(name))
  if (misnamed.length > 0) {
    throw new Error(`migration files must be named NNN_name.sql: ${misnamed.join(', ')} in ${directory}`)
  }
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(join(directory, name))
      return { name, checksum: createHash('sha256').update(bytes).digest('hex'), text: bytes.toString('utf8') }
    }),
  )
}

/** Editing an applied migration would leave databases that ran the old text silently different. */
export function changedMigrationError(service: string, file: MigrationFile, directory: string): Error {
  return new Error(
    `migration ${join(directory, file.name)} (service ${service}) was changed after it was applied; ` +
      'add a new migration file instead of editing an applied one',
  )
}

/**
 * A database that holds migrations this code lacks was upgraded by a later release: running on it
 * would mean code that does not know its schema, and forward-only migrations cannot step it back.
 * The number in front of each name is the schema version.
 */
export function newerSchemaError(
  options: { engine: string; service: string; directory: string },
  known: MigrationFile[],
  applied: string[],
): Error | undefined {
  const names = new Set(known.map((file) => file.name))
  const unknown = applied.filter((name) => !names.has(name)).sort()
  if (unknown.length === 0) return undefined
  const version = (name: string | undefined) => (name ? `${Number.parseInt(name, 10)} (${name})` : 'none')
  return new Error(
    `the ${options.engine} database holds ${unknown.length} migration(s) of service ${options.service} that this ` +
      `Guard does not know: ${unknown.join(', ')}. Its schema is at version ${version([...applied].sort().at(-1))}, ` +
      `this Guard's at ${version(known.at(-1)?.name)} (${options.directory}): a newer release ran on it. ` +
      'Migrations only go forward, so Guard refuses to start: run that newer release again, or restore a backup ' +
      'taken before the upgrade (guard restore)',
  )
}
