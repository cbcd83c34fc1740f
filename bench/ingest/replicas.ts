import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createNatsBus,
  DEFAULT_ORGANIZATION,
  encodeCheckResult,
  guardStreams,
  newId,
  openRelationalStore,
  resultSubject,
} from '@guard/shared'
import { freePort, startNatsServer, startPostgres } from '@guard/shared/testing'
import { type GuardProcess, spawnGuard } from '../../test/support/spawn-guard.ts'
import { benchCheckResult } from './check-result.ts'

/**
 * bench/ingest with BENCH_REPLICAS (e.g. `1,2,3`): real `guard collector` processes sharing one
 * nats-server durable and one PostgreSQL, each with its own chDB (chDB is per process; a shared
 * ClickHouse server is not installable here, so each replica writes "its shard"). For each count,
 * replicas are added up to it, they are frozen (SIGSTOP) while BENCH_RESULTS results are published,
 * then thawed: stored results per second is the count over the time from the thaw until the
 * replicas' `guard_ingest_results_stored_total` add up to it. CPU per process (each collector,
 * nats-server, PostgreSQL) over that time names the limit: the process near one core's 1000 ms/s.
 */
const round = (value: number) => Number(value.toPrecision(4))
const CLOCK_TICKS_PER_SECOND = 100
const locations = ['fra', 'iad', 'sin']

const statCpuMs = (stat: string) => {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

/** CPU so far of each collector, and of this bench's nats-server and postgres processes, summed by kind. */
async function cpuByProcess(collectors: GuardProcess[]): Promise<Record<string, number>> {
  const readStat = (path: string) => readFile(path, 'utf8').catch(() => '')
  const cpu: Record<string, number> = { natsServer: 0, postgres: 0 }
  for (const [index, collector] of collectors.entries()) {
    cpu[`collector${index + 1}`] = statCpuMs(await readStat(`/proc/${collector.child.pid}/stat`))
  }
  const processes = new Map<number, { parent: number; name: string; stat: string }>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readStat(`/proc/${entry}/stat`)
    if (!stat) continue
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    processes.set(Number(entry), { parent: Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]), name, stat })
  }
  const ours = (pid: number): boolean => {
    for (let at = processes.get(pid)?.parent; at !== undefined && at > 1; at = processes.get(at)?.parent) {
      if (at === process.pid) return true
    }
    return false
  }
  for (const [pid, { name, stat }] of processes) {
    if (name === 'nats-server' && ours(pid)) cpu.natsServer! += statCpuMs(stat)
    else if (name === 'postgres' && ours(pid)) cpu.postgres! += statCpuMs(stat)
  }
  return cpu
}

export async function benchIngestReplicas(counts: number[], total: number, monitors: number, maxBatch: number) {
  const nats = await startNatsServer()
  if (!nats) throw new Error('bench/ingest needs nats-server (apt-get install nats-server)')
  const postgres = await startPostgres()
  if (!postgres) throw new Error('BENCH_REPLICAS needs PostgreSQL (Debian: postgresql-15)')
  const dirs: string[] = []
  const collectors: GuardProcess[] = []
  const urls: string[] = []
  const bus = await createNatsBus({ servers: nats.url, name: 'bench-ingest-replicas', streams: guardStreams })
  let apiKey = ''
  const storedBy = async (url: string) => {
    const response = await fetch(new URL('/metrics', url), { headers: { authorization: `Bearer ${apiKey}` } })
    return Number((await response.text()).match(/^guard_ingest_results_stored_total (\d+)/m)?.[1] ?? 0)
  }
  const storedTotal = async () => (await Promise.all(urls.map(storedBy))).reduce((sum, count) => sum + count, 0)
  const addReplica = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guard-bench-replica-'))
    dirs.push(dir)
    const collector = spawnGuard(['collector'], {
      NATS_URL: nats.url,
      DATABASE_URL: postgres.url,
      GUARD_DATA_DIR: dir,
      GUARD_COLLECTOR_PORT: String(await freePort()),
      GUARD_INGEST_MAX_BATCH: String(maxBatch),
      GUARD_INGEST_MAX_WAIT_MS: '50',
      GUARD_RATE_LIMIT_READ: '1000000',
    })
    collectors.push(collector)
    const [, url] = await collector.waitFor(/collector: (http:\/\/127\.0\.0\.1:\d+)/, 120_000)
    urls.push(url!)
    apiKey ||= collector.output().match(/api key: (guard_\S+)/)?.[1] ?? ''
  }
  const rounds: Array<Record<string, unknown>> = []
  try {
    await addReplica()
    const sql = await openRelationalStore({ databaseUrl: postgres.url, dataDir: dirs[0]! })
    const ids = Array.from({ length: monitors }, () => newId())
    await sql.query(
      `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
       SELECT id, $2, 'domain', id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
         FROM unnest($1::text[]) AS id`,
      [ids, DEFAULT_ORGANIZATION.id],
    )
    await sql.close()
    let published = 0
    for (const count of counts) {
      while (collectors.length < count) await addReplica()
      for (const collector of collectors) collector.child.kill('SIGSTOP')
      const started = Date.now() - (published + total) * 10
      const pending: Promise<unknown>[] = []
      for (let index = 0; index < total; index += 1) {
        const result = benchCheckResult({ index, ids, monitors, locations, started })
        pending.push(bus.publish(resultSubject(result.location), encodeCheckResult(result), { msgId: result.id }))
        if (pending.length >= 500) await Promise.all(pending.splice(0))
      }
      await Promise.all(pending)
      published += total
      const cpuBefore = await cpuByProcess(collectors)
      const thawed = performance.now()
      for (const collector of collectors) collector.child.kill('SIGCONT')
      const deadline = Date.now() + 600_000
      while ((await storedTotal()) < published) {
        if (Date.now() > deadline) throw new Error('bench timed out')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const seconds = (performance.now() - thawed) / 1000
      const cpuAfter = await cpuByProcess(collectors)
      // Milliseconds of CPU per second of the run: 1000 is one core busy all along.
      const cpuMsPerSecond = Object.fromEntries(
        Object.entries(cpuAfter).map(([name, ms]) => [name, round((ms - (cpuBefore[name] ?? 0)) / seconds)]),
      )
      const measured = {
        replicas: count,
        storedPerSecond: round(total / seconds),
        seconds: round(seconds),
        cpuMsPerSecond,
        loadAverage1m: round(loadavg()[0]!),
      }
      rounds.push(measured)
      // As it goes, for a run cut short.
      process.stderr.write(`${JSON.stringify(measured)}\n`)
    }
  } finally {
    await Promise.all(collectors.map((collector) => collector.stop('SIGTERM')))
    await bus.close()
    await nats.stop()
    await postgres.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  }
  const single = Number(rounds[0]?.storedPerSecond ?? 0)
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'ingest-replicas',
        resultsPerRound: total,
        monitors,
        maxBatch,
        timeseries: 'chDB per replica',
        rounds: rounds.map((entry) => ({
          ...entry,
          scaling: round(Number(entry.storedPerSecond) / single),
        })),
      },
      null,
      2,
    )}\n`,
  )
}
