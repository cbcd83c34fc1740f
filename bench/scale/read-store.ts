import { writeFile } from 'node:fs/promises'
import { openTimeSeriesStore } from '@guard/shared'

/**
 * Run in a child process once a collector replica has stopped (chDB allows one data directory
 * per process): writes every stored result of the replica's chDB as TSV lines of id, monitor id,
 * location and start time in epoch milliseconds. Raw rows, not FINAL, so a result stored twice
 * shows up twice. Usage: read-store.ts <data dir> <database> <out file>.
 */
const [dataDir, database, outFile] = process.argv.slice(2)
if (!dataDir || !database || !outFile) throw new Error('usage: read-store.ts <data dir> <database> <out file>')
const store = await openTimeSeriesStore({ database, dataDir })
try {
  const rows = await store.client.query({
    query: 'SELECT id, monitor_id, location, toUnixTimestamp64Milli(started_at) FROM check_results',
    format: 'TabSeparated',
  })
  await writeFile(outFile, await rows.text())
} finally {
  await store.close()
}
