import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { openPglite, openTimeSeriesStore } from '@guard/shared'
import { processMemory } from './process-memory.ts'

/**
 * The floor each embedded engine imposes, in a process of its own: RSS of Node alone, then with
 * PGlite open on the migrated cluster in argv[2] (made by another process: initdb's own
 * WebAssembly instance would stay in this one), then with chDB open on an empty directory.
 * Prints one JSON line.
 */
const sharedBuffers = process.env.GUARD_PGLITE_SHARED_BUFFERS ?? '32MB'
/** An engine's start allocates and frees; what it keeps shows once its threads have settled. */
const SETTLE_MS = 20_000
const settled = async () => {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  return processMemory(process.pid)
}
const dir = process.argv[2]
if (!dir) throw new Error('usage: floor.ts DATA_DIR (a data directory seeded with a migrated cluster)')
try {
  const node = await processMemory(process.pid)
  const sql = await openPglite({ dataDir: join(dir, 'pglite'), sharedBuffers })
  await sql.query('SELECT 1')
  const pglite = await settled()
  const timeseries = await openTimeSeriesStore({ database: 'guard', dataDir: dir })
  await timeseries.client.query({ query: 'SELECT 1' })
  const both = await settled()
  process.stdout.write(`${JSON.stringify({ node, pglite, both })}\n`)
  await timeseries.close()
  await sql.close()
} finally {
  await rm(dir, { recursive: true, force: true })
}
