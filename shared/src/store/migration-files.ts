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
