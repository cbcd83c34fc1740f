import { spawn, spawnSync } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { MonitorTarget } from '@guard/shared'
import { startMariaDb, startPostgres, startRedis } from '@guard/shared/testing'
import { checkTarget } from '../../probe/src/checkers/index.ts'

/**
 * The probe's cost per database check against local servers (each a process of its own):
 * CPU-ms of this process (user + system) per check over BENCH_DB_CHECKS (300) sequential checks
 * after 30 of warm-up, a TCP check to the same PostgreSQL as the reference; and the RSS each
 * driver adds when first imported. MongoDB runs against the wire-protocol fake of the tests.
 * Run by hand: `npx tsx bench/databases/run.ts`. Prints JSON.
 */
const CHECKS = Number(process.env.BENCH_DB_CHECKS ?? 300)
const WARMUP = 30
const probeDir = fileURLToPath(new URL('../../probe/', import.meta.url))
const context = () => ({ timeoutMs: 5000, signal: AbortSignal.timeout(5000), allowPrivate: true })

async function cpuMsPerCheck(target: MonitorTarget) {
  for (let i = 0; i < WARMUP; i++) await checkTarget(target, context())
  const before = process.cpuUsage()
  const started = performance.now()
  let down = 0
  for (let i = 0; i < CHECKS; i++) {
    const outcome = await checkTarget(target, context())
    if (outcome.status !== 'up') down++
  }
  const cpu = process.cpuUsage(before)
  return {
    cpuMsPerCheck: Math.round(((cpu.user + cpu.system) / 1000 / CHECKS) * 100) / 100,
    wallMsPerCheck: Math.round(((performance.now() - started) / CHECKS) * 100) / 100,
    down,
  }
}

/** RSS a driver adds to a fresh Node that has already loaded the builtins a probe has. */
function driverRssMb(specifier: string): number {
  const script = `
    for (const m of ['net','tls','dns','crypto','stream','events','util','zlib']) require(m)
    globalThis.gc?.(); const before = process.memoryUsage().rss
    import(${JSON.stringify(specifier)}).then(() => { globalThis.gc?.(); console.log(process.memoryUsage().rss - before) })`
  const run = spawnSync(process.execPath, ['--expose-gc', '-e', script], { cwd: probeDir, encoding: 'utf8' })
  return Math.round((Number(run.stdout.trim()) / 1_048_576) * 10) / 10
}

const postgres = await startPostgres()
const mariadb = await startMariaDb()
const redis = await startRedis()
const mongoProcess = spawn('npx', ['tsx', fileURLToPath(new URL('mongo-server.ts', import.meta.url))], {
  stdio: ['pipe', 'pipe', 'inherit'],
})
const [mongoLine] = await createInterface({ input: mongoProcess.stdout })
  [Symbol.asyncIterator]()
  .next()
  .then((r) => [r.value as string])
const mongoPort = JSON.parse(mongoLine ?? '{}').port as number
if (!postgres || !mariadb || !redis) throw new Error('PostgreSQL, MariaDB and Redis must be installed')
const pgPort = Number(new URL(postgres.url).port)

const results = {
  checks: CHECKS,
  tcp: await cpuMsPerCheck({ kind: 'tcp', host: '127.0.0.1', port: pgPort }),
  postgres: await cpuMsPerCheck({
    kind: 'postgres',
    host: '127.0.0.1',
    port: pgPort,
    username: 'guard',
    database: 'guard',
  }),
  mysql: await cpuMsPerCheck({
    kind: 'mysql',
    host: '127.0.0.1',
    port: mariadb.port,
    username: mariadb.user,
    secrets: { password: mariadb.password },
  }),
  redis: await cpuMsPerCheck({
    kind: 'redis',
    host: '127.0.0.1',
    port: redis.port,
    secrets: { password: redis.password },
  }),
  mongodb: await cpuMsPerCheck({ kind: 'mongodb', host: '127.0.0.1', port: mongoPort }),
  driverRssMb: {
    pg: driverRssMb('pg'),
    mysql2: driverRssMb('mysql2/promise'),
    redis: driverRssMb('redis'),
    mongodb: driverRssMb('mongodb'),
  },
  loadAverage: (await import('node:os')).loadavg().map((load) => Math.round(load * 100) / 100),
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
mongoProcess.stdin.end()
await Promise.all([postgres.stop(), mariadb.stop(), redis.stop()])
