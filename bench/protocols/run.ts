import { execFile, spawn } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { CheckResult } from '@guard/shared'
import { runCheck } from '../../probe/src/run-check.ts'
import { type BenchCase, benchCases, credentialsKey, selectedKinds, servedTargets } from './cases.ts'
import { type MemoryReport, memoryReport } from './memory-report.ts'

/**
 * bench/protocols: what a probe spends per check of each kind, to size a probe. Every target is
 * served on 127.0.0.1 by another process (servers.ts), so only the checking side is measured.
 *
 * perCheck, one entry per kind and variant (the TLS and assertion variants the test fixtures
 * serve), each over BENCH_CHECKS sequential checks after a warm-up of a tenth of them (at least 5),
 * run through the probe's own runCheck (secrets sealed and opened as in production, thresholds
 * applied):
 * - cpuMs: CPU time of this process (user + system) per check, the figure to size a probe with;
 * - cpuVsTcp: cpuMs over the TCP reference's, measured in the same run, first and again last (the
 *   mean of both). A shared or busy machine inflates every cpuMs alike, so compare the ratios when
 *   the load average is high;
 * - wallMsP50 / wallMsP95: wall time of one check, start to result (latency, not cost); it carries
 *   the fixtures' own pauses: smtp-server holds its banner 100 ms to catch early talkers;
 * - up / down: every check must be up; a check that is not is printed and the run fails.
 *
 * memory, each in a fresh process of its own (memory.ts, after a full GC, in MB):
 * - httpOnly: a probe that ran BENCH_CHECKS HTTP checks and nothing else;
 * - allKinds: the same after one check of every case as well, so every lazily loaded driver
 *   (@grpc/grpc-js, ws, mqtt, ssh2, pg, mysql2, redis, mongodb) is in;
 * - added: allKinds minus httpOnly, RSS and heap;
 * - runtime and modulesLoaded: Node with tsx (how Guard runs), then with the probe's modules imported;
 * - firstCheckAdds: what each case's first check added in the allKinds process, in the order run:
 *   the first case of a kind carries its driver's load; a later one only what it adds beside.
 *   pg adds nothing there: @guard/shared's store imports it, so every probe has it in modulesLoaded.
 *
 * loadAverage at start and end says how busy the machine was. Environment: BENCH_CHECKS (200),
 * BENCH_KINDS (a comma list of tcp, http, udp, grpc, websocket, mqtt, smtp, imap, pop3, ssh,
 * postgres, mysql, redis, mongodb; default all; tcp and http always run). PostgreSQL, MariaDB and Redis
 * must be installed for their kinds; MongoDB is the tests' wire-protocol fake. Prints JSON.
 */
const CHECKS = Number(process.env.BENCH_CHECKS ?? 200)
const WARMUP = Math.max(5, Math.round(CHECKS / 10))
const MEMORY_RUN_TIMEOUT_MS = 180_000
const SERVERS_READY_TIMEOUT_MS = 120_000
const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits
const loadAverage = () => loadavg().map((load) => round(load))

const startLoad = loadAverage()
const kinds = selectedKinds()

function startServers() {
  const child = spawn(process.execPath, ['--import', 'tsx', here('./servers.ts')], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the servers process exited (${code}) before serving`)))
    setTimeout(() => reject(new Error('the servers were not ready in time')), SERVERS_READY_TIMEOUT_MS).unref()
  })
  return { child, firstLine }
}

const servers = startServers()
const served = servedTargets.parse(JSON.parse(await servers.firstLine.catch(stopAndRethrow)))
const cases = benchCases(kinds, served)
const failures: string[] = []

async function stopServers() {
  if (servers.child.exitCode !== null) return
  const exited = new Promise((resolve) => servers.child.once('exit', resolve))
  servers.child.stdin.end()
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())])
}

async function stopAndRethrow(error: unknown): Promise<never> {
  await stopServers()
  throw error
}

function noteDown(name: string, result: CheckResult) {
  failures.push(`${name}: ${result.status} ${result.errorKind ?? ''} ${result.error ?? ''}`)
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

async function measure({ name, monitor }: BenchCase) {
  const check = () => runCheck(monitor, 'bench', true, { credentialsKey })
  for (let index = 0; index < WARMUP; index++) {
    const result = await check()
    if (result.status !== 'up') noteDown(`${name} (warm-up)`, result)
  }
  const walls: number[] = []
  let up = 0
  const cpu = process.cpuUsage()
  for (let index = 0; index < CHECKS; index++) {
    const started = performance.now()
    const result = await check()
    walls.push(performance.now() - started)
    if (result.status === 'up') up++
    else noteDown(name, result)
  }
  const used = process.cpuUsage(cpu)
  walls.sort((a, b) => a - b)
  return {
    cpuMs: (used.user + used.system) / 1000 / CHECKS,
    wallMsP50: round(percentile(walls, 0.5)),
    wallMsP95: round(percentile(walls, 0.95)),
    up,
    down: CHECKS - up,
  }
}

async function memoryRun(mode: 'http' | 'all'): Promise<MemoryReport> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', here('./memory.ts'), mode],
    {
      cwd: repoRoot,
      env: { ...process.env, BENCH_SERVED: JSON.stringify(served), BENCH_CHECKS: String(CHECKS) },
      timeout: MEMORY_RUN_TIMEOUT_MS,
    },
  )
  const report = memoryReport.parse(JSON.parse(stdout))
  failures.push(...report.down.map((line) => `memory ${mode}: ${line}`))
  return report
}

try {
  const measured: Array<[string, Awaited<ReturnType<typeof measure>>]> = []
  const reference = cases[0]!
  // The reference runs again last: on a busy machine the load drifts while the kinds are measured.
  for (const entry of [...cases, { ...reference, name: `${reference.name}, again at the end` }]) {
    process.stderr.write(`  ${entry.name}\n`)
    measured.push([entry.name, await measure(entry)])
  }
  const tcpCpuMs = (measured[0]![1].cpuMs + measured.at(-1)![1].cpuMs) / 2
  const perCheck = Object.fromEntries(
    measured.map(([name, { cpuMs, ...rest }]) => [
      name,
      { cpuMs: round(cpuMs), cpuVsTcp: round(cpuMs / tcpCpuMs, 1), ...rest },
    ]),
  )

  process.stderr.write('  memory\n')
  const httpOnly = await memoryRun('http')
  const allKinds = await memoryRun('all')
  const memory = {
    httpOnly: httpOnly.final,
    allKinds: allKinds.final,
    added: {
      rssMb: round(allKinds.final.rssMb - httpOnly.final.rssMb, 1),
      heapMb: round(allKinds.final.heapMb - httpOnly.final.heapMb, 1),
    },
    runtime: httpOnly.runtime,
    modulesLoaded: httpOnly.modulesLoaded,
    firstCheckAdds: allKinds.firstCheckAdds,
  }

  const report = {
    checks: CHECKS,
    warmup: WARMUP,
    cores: availableParallelism(),
    loadAverage: { start: startLoad, end: loadAverage() },
    perCheck,
    memory,
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
} finally {
  await stopServers()
}

if (failures.length > 0) {
  process.stderr.write(`${failures.length} checks were not up:\n${failures.slice(0, 50).join('\n')}\n`)
  process.exitCode = 1
}
