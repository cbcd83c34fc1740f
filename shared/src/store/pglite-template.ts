import { readFileSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { migrate } from './migrate.ts'
import { openPglite } from './relational.ts'
import type { RelationalStore } from './types.ts'

/**
 * A fresh PGlite costs seconds of initdb; one loaded from a dumped data directory starts in a
 * fraction of that. The dump is cached in the OS temp directory, keyed by PGlite version, so
 * every test process after the first on a machine skips initdb entirely.
 */
let template: Promise<Blob> | undefined

function pgliteVersion(): string {
  // The package's exports hide package.json; its entry point sits in dist/ beside it.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }
  return manifest.version
}

async function loadOrCreateTemplate(): Promise<Blob> {
  const file = join(tmpdir(), `guard-pglite-template-${pgliteVersion()}.tar`)
  try {
    return new Blob([await readFile(file)])
  } catch {
    // Not cached yet: build it below.
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create()
  try {
    const dump = await db.dumpDataDir('none')
    // Uncompressed: about 40 MB on disk, but loads faster than the gzip form.
    const partial = `${file}.${process.pid}.tmp`
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()))
    // Rename is atomic, so a concurrent test process never reads a half-written dump.
    await rename(partial, file)
    return dump
  } finally {
    await db.close()
  }
}

/** An in-memory PGlite of its own for one test, cloned from the cached template. */
export async function openTestRelationalStore(): Promise<RelationalStore> {
  template ??= loadOrCreateTemplate()
  return openPglite({ loadDataDir: await template })
}

/** A service's migration folder, as `migrate` takes it. */
export interface TestMigrations {
  service: string
  directory: string
}

/** Uncompressed dumps of the template with migrations applied, one per list of folders, per process. */
const migratedTemplates = new Map<string, Promise<Blob>>()

async function migratedTemplate(migrations: TestMigrations[]): Promise<Blob> {
  const store = await openTestRelationalStore()
  try {
    for (const folder of migrations) await migrate(store, folder)
    return await store.dumpDataDir!('none')
  } finally {
    await store.close()
  }
}

/**
 * An in-memory PGlite of its own with `migrations` applied, cloned from a template migrated once
 * per test process: applying the collector's 30-odd migrations again for every test harness cost
 * about as much CPU as loading the clone itself. `migrate` then finds nothing left to apply.
 */
export async function openMigratedTestRelationalStore(migrations: TestMigrations[]): Promise<RelationalStore> {
  const key = JSON.stringify(migrations)
  let dump = migratedTemplates.get(key)
  if (!dump) {
    dump = migratedTemplate(migrations)
    migratedTemplates.set(key, dump)
  }
  return openPglite({ loadDataDir: await dump })
}
