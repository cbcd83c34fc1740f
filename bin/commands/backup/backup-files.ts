import { copyFile, mkdir, readdir, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { type AppliedMigration, sha256Of } from './manifest.ts'

/** Where a backup keeps each part; the manifest lists every file under these. */
export const PGLITE_DUMP = 'pglite.tar.gz'
export const CHDB_DIR = 'chdb'
export const FILES_DIR = 'files'
export const tableFile = (table: string) => `${table}.native.zst`

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Copies `from` into `to`, skipping entries that go while it runs: the bus drops old segments
 * and the outbox sent batches under a running Guard, and a file gone is one nobody needs back.
 */
export async function copyTree(from: string, to: string, skip: (path: string) => boolean = () => false) {
  let entries: string[]
  try {
    entries = await readdir(from)
  } catch (error) {
    if (isMissing(error)) return
    throw error
  }
  await mkdir(to, { recursive: true, mode: 0o700 })
  for (const name of entries) {
    const source = join(from, name)
    if (skip(source)) continue
    const entry = await stat(source).catch((error: unknown) => {
      if (isMissing(error)) return undefined
      throw error
    })
    if (!entry) continue
    if (entry.isDirectory()) await copyTree(source, join(to, name), skip)
    else
      await copyFile(source, join(to, name)).catch((error: unknown) => {
        if (!isMissing(error)) throw error
      })
  }
}

/** Every file under `root` with its size and SHA-256, by its path relative to `root`. */
export async function fileSums(root: string): Promise<Record<string, { bytes: number; sha256: string }>> {
  const sums: Record<string, { bytes: number; sha256: string }> = {}
  for (const name of (await readdir(root, { recursive: true })).sort()) {
    const path = join(root, name)
    const entry = await stat(path)
    if (entry.isFile()) sums[relative(root, path)] = { bytes: entry.size, sha256: await sha256Of(path) }
  }
  return sums
}

/** A path as a ClickHouse string literal: table functions take no bound parameters. */
export const sqlString = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

export const byName = (a: AppliedMigration, b: AppliedMigration) =>
  a.service === b.service ? a.name.localeCompare(b.name) : a.service.localeCompare(b.service)
