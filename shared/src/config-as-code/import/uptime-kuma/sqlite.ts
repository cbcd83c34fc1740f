/**
 * Node's built-in SQLite (node:sqlite, Node 22.5+), loaded on first use so Node 20, where it does
 * not exist, still loads everything else. Typed here as far as the importer uses it: the project's
 * @types/node is Node 20's, which has no node:sqlite.
 */
export interface SqliteStatement {
  all(...parameters: unknown[]): Array<Record<string, unknown>>
  get(...parameters: unknown[]): Record<string, unknown> | undefined
  run(...parameters: unknown[]): { lastInsertRowid: number | bigint }
}
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement
  exec(sql: string): void
  close(): void
}
interface SqliteModule {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean; defensive?: boolean }) => SqliteDatabase
}

// A specifier TypeScript does not resolve: Node 20's types would refuse the module's name.
const specifier: string = 'node:sqlite'

export async function openSqlite(
  file: string,
  options?: { readOnly?: boolean; defensive?: boolean },
): Promise<SqliteDatabase> {
  const sqlite = (await import(specifier).catch(() => {
    throw new Error(`reading ${file} needs Node 22.5 or later (node:sqlite); this is Node ${process.versions.node}`)
  })) as SqliteModule
  return new sqlite.DatabaseSync(file, options)
}

/** Whether this Node has node:sqlite. */
export const sqliteAvailable = (): Promise<boolean> =>
  import(specifier).then(
    () => true,
    () => false,
  )
