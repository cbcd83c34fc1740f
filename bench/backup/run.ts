import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  migrate,
  newId,
  openRelationalStore,
  openTimeSeriesStore,
} from '@guard/shared'
import { makeBackup } from '../../bin/commands/backup/make-backup.ts'
import { migrationFolders } from '../../bin/commands/backup/manifest.ts'
import { restoreBackup } from '../../bin/commands/backup/restore-backup.ts'
import { seedResults } from '../api/seed.ts'

/**
 * bench/backup: an embedded data directory with BENCH_DOMAINS domains (10,000) and BENCH_DAYS days
 * (1) of one-minute results from 3 locations (bench/api's seeding: raw rows for the last 24 hours,
 * rollups before), then `guard backup`'s work on it and `guard restore`'s into a fresh directory.
 * Prints JSON: rows seeded, data directory size, backup time and size, restore time, and the raw
 * row count read back from the restored chDB.
 */
const domains = Number(process.env.BENCH_DOMAINS ?? 10_000)
const days = Number(process.env.BENCH_DAYS ?? 1)
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2))

async function sizeOf(root: string): Promise<number> {
  let bytes = 0
  for (const name of await readdir(root, { recursive: true })) {
    const entry = await stat(join(root, name)).catch(() => undefined)
    if (entry?.isFile()) bytes += entry.size
  }
  return bytes
}

const root = await mkdtemp(join(tmpdir(), 'guard-bench-backup-'))
try {
  const dataDir = join(root, 'data')
  const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
  const sql = await openRelationalStore({ dataDir })
  const timeseries = await openTimeSeriesStore({ database: 'guard', dataDir })
  const bus = createInProcessBus({ streams: guardStreams })
  const env = collectorEnvSchema.parse({ GUARD_DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  await migrate(sql, { service: 'identity', directory: migrationFolders.postgres.identity })
  await prepareCollector({ env, log, sql, timeseries, bus })
  const organizationId = DEFAULT_ORGANIZATION.id
  const ids = Array.from({ length: domains }, () => newId())
  const seedStart = performance.now()
  await sql.query(
    `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
     SELECT id, $2, 'domain', 'domain ' || id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
       FROM unnest($1::text[]) AS id`,
    [ids, organizationId],
  )
  const rows = await seedResults(timeseries, { ids, organizationId, days })
  const seedSeconds = seconds(seedStart)
  const dataDirBytes = await sizeOf(dataDir)

  const backupStart = performance.now()
  const made = await makeBackup({ dataDir, sql, timeseries }, join(root, 'backup'))
  const backupSeconds = seconds(backupStart)
  await bus.close()
  await timeseries.close()
  await sql.close()

  const restored = join(root, 'restored')
  const restoreStart = performance.now()
  await restoreBackup(made.to, { dataDir: restored, database: 'guard' })
  const restoreSeconds = seconds(restoreStart)
  const check = await openTimeSeriesStore({ database: 'guard', dataDir: restored })
  const counted = await (
    await check.client.query({ query: 'SELECT count() AS n FROM check_results', format: 'JSONEachRow' })
  ).json<{ n: number }>()
  await check.close()

  console.log(
    JSON.stringify(
      {
        bench: 'backup',
        domains,
        days,
        rows,
        seedSeconds,
        dataDirMB: Number((dataDirBytes / 1e6).toFixed(1)),
        backup: { seconds: backupSeconds, MB: Number((made.bytes / 1e6).toFixed(1)), files: made.files },
        restore: { seconds: restoreSeconds, rawRowsBack: counted[0]?.n },
      },
      null,
      2,
    ),
  )
} finally {
  await rm(root, { recursive: true, force: true })
}
