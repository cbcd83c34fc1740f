import { readFileSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
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
