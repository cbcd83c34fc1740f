import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createInProcessBus, encodeCheckResult, guardStreams, type MonitorConfig } from '@guard/shared'
import { Pool } from 'undici'
import { CheckPool } from '../../probe/src/check-pool/pool.ts'
import { runCheck } from '../../probe/src/run-check.ts'
import { Scheduler } from '../../probe/src/scheduler.ts'

/**
 * bench/probe: the ceiling of Guard's probe and of Prometheus' blackbox_exporter, side by side,
 * over plain HTTP and HTTPS against a local target, every check on a fresh connection. Both are
 * driven by Guard's scheduler (for blackbox_exporter it stands in for Prometheus, fetching
 * /probe). The check rate climbs step by step (BENCH_START_RATE, times BENCH_RATE_FACTOR) until a
 * side saturates: schedule lag p99 above BENCH_MAX_LAG_MS, a failed check, or fewer checks done
 * than scheduled. A side's ceiling is its last step that did not saturate. At each rate both sides
 * run one after the other, alternating who goes first, so load that drifts on a shared machine
 * falls on both alike. Prints JSON: every step, each side's ceiling and CPU-ms per check there,
 * and our/their ratios.
 *
 * Environment: BENCH_START_RATE (200 checks/s), BENCH_RATE_FACTOR (1.25), BENCH_MAX_RATE (8000),
 * BENCH_STEP_SECONDS (6, measured after one interval of ramp-up), BENCH_INTERVAL_MS (2000),
 * BENCH_CONCURRENCY (200 checks in flight), BENCH_MAX_LAG_MS (1000), BENCH_PROTOCOLS (http,https),
 * BENCH_PROBE_THREADS (Guard's check threads, a comma list to compare several, default one per
 * core), BLACKBOX_EXPORTER (path of the binary).
 */
const startRate = Number(process.env.BENCH_START_RATE ?? 200)
const rateFactor = Number(process.env.BENCH_RATE_FACTOR ?? 1.25)
const maxRate = Number(process.env.BENCH_MAX_RATE ?? 8000)
const stepSeconds = Number(process.env.BENCH_STEP_SECONDS ?? 6)
const intervalMs = Number(process.env.BENCH_INTERVAL_MS ?? 2000)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 200)
const maxLagMs = Number(process.env.BENCH_MAX_LAG_MS ?? 1000)
const protocols = (process.env.BENCH_PROTOCOLS ?? 'http,https').split(',') as ('http' | 'https')[]
const threadCounts = (process.env.BENCH_PROBE_THREADS ?? String(availableParallelism())).split(',').map(Number)
const blackboxBinary = process.env.BLACKBOX_EXPORTER ?? '/usr/bin/prometheus-blackbox-exporter'
const CLOCK_TICKS_PER_SECOND = 100
/** Done below this share of the scheduled checks, a side is not keeping up (the scheduler skips overdue runs). */
const KEEPING_UP = 0.95

interface Step {
  offeredPerSecond: number
  checksPerSecond: number
  checks: number
  failures: number
  lagP50Ms: number
  lagP99Ms: number
  cpuMsPerCheck: number
  /** The target's CPU per check: it shares the machine's cores with the side under test. */
  targetCpuMsPerCheck: number
  saturated: false | string
}

interface Side {
  name: string
  /** Runs the monitors for one step and returns what it measured. */
  step(rate: number): Promise<Step>
  steps: Step[]
  done: boolean
}

const round = (value: number, digits = 3) => Number(value.toPrecision(digits))

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

function monitorsFor(url: string, rate: number): MonitorConfig[] {
  return Array.from({ length: Math.round((rate * intervalMs) / 1000) }, (_, index) => ({
    v: 1,
    id: `bench-${index}`,
    organizationId: 'bench',
    target: { kind: 'http', url, method: 'GET', ignoreTlsErrors: true },
    // Below the contract's 5 s minimum on purpose: the scheduler takes any interval, and a
    // short one loads the probe without tens of thousands of monitors.
    intervalSeconds: intervalMs / 1000,
    timeoutSeconds: 5,
    locations: ['bench'],
    enabled: true,
  }))
}

async function processCpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? []
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

const ownCpuMs = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/**
 * Runs `rate` checks per second with `check` for one interval of ramp-up, then measures for
 * stepSeconds: lags, checks and failures counted in the window, CPU from `cpuMs` (the side's
 * process, threads included) and the target's.
 */
async function drive(
  rate: number,
  url: string,
  check: (monitor: MonitorConfig) => Promise<boolean>,
  cpuMs: () => Promise<number>,
  targetPid: number,
): Promise<Step> {
  const lags: number[] = []
  let measuring = false
  let checks = 0
  let failures = 0
  const scheduler = new Scheduler({
    concurrency,
    onLag: (lag) => {
      if (measuring) lags.push(lag)
    },
    run: async (monitor) => {
      const ok = await check(monitor)
      if (!measuring) return
      checks += 1
      if (!ok) failures += 1
    },
  })
  for (const monitor of monitorsFor(url, rate)) scheduler.upsert(monitor)
  await new Promise((resolve) => setTimeout(resolve, intervalMs))
  const cpuBefore = await cpuMs()
  const targetBefore = await processCpuMs(targetPid)
  const started = performance.now()
  measuring = true
  await new Promise((resolve) => setTimeout(resolve, stepSeconds * 1000))
  measuring = false
  const wallSeconds = (performance.now() - started) / 1000
  const cpu = (await cpuMs()) - cpuBefore
  const targetCpu = (await processCpuMs(targetPid)) - targetBefore
  await scheduler.stop()
  const checksPerSecond = checks / wallSeconds
  const lagP99Ms = percentile(lags, 99)
  const saturated =
    lagP99Ms > maxLagMs
      ? `lag p99 ${lagP99Ms} ms above ${maxLagMs} ms`
      : failures > 0
        ? `${failures} failed checks`
        : checksPerSecond < rate * KEEPING_UP
          ? `${round(checksPerSecond)} checks/s done of ${round(rate)} scheduled`
          : false
  return {
    offeredPerSecond: round(rate),
    checksPerSecond: round(checksPerSecond),
    checks,
    failures,
    lagP50Ms: round(percentile(lags, 50)),
    lagP99Ms: round(lagP99Ms),
    cpuMsPerCheck: round(cpu / Math.max(1, checks)),
    targetCpuMsPerCheck: round(targetCpu / Math.max(1, checks)),
    saturated,
  }
}

function guardSide(url: string, threads: number, targetPid: number): Side & { close(): Promise<void> } {
  const pool = new CheckPool({ threads })
  const bus = createInProcessBus({ streams: guardStreams })
  const check = async (monitor: MonitorConfig) => {
    const result = await runCheck(monitor, 'bench', true, { check: pool.check })
    // Encode and store it as the probe does, so the figure covers the whole path to the stream.
    await bus.publish('results.bench', encodeCheckResult(result), { msgId: result.id })
    return result.status === 'up'
  }
  return {
    name: `guard (${threads} check threads)`,
    steps: [],
    done: false,
    step: (rate) => drive(rate, url, check, async () => ownCpuMs(), targetPid),
    async close() {
      await pool.close()
      await bus.close()
    },
  }
}

function blackboxSide(
  exporterUrl: string,
  pid: number,
  url: string,
  targetPid: number,
): Side & { close(): Promise<void> } {
  // Keep-alive connections to the exporter, as Prometheus scrapes it; undici is the cheapest client.
  const client = new Pool(exporterUrl, { connections: concurrency })
  const module = url.startsWith('https') ? 'https' : 'http'
  const path = `/probe?module=${module}&target=${encodeURIComponent(url)}`
  const check = async () => {
    const response = await client.request({ path, method: 'GET' })
    return /^probe_success 1$/m.test(await response.body.text())
  }
  return {
    name: 'blackbox_exporter',
    steps: [],
    done: false,
    step: (rate) => drive(rate, url, check, () => processCpuMs(pid), targetPid),
    close: () => client.close(),
  }
}

function spawnLines(command: string, args: string[]): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const lines = createInterface({ input: child.stdout! })
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}`)))
  })
  return { child, firstLine }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

async function waitForHttp(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not come up`)
}

const ratio = (our: number | undefined, their: number | undefined) =>
  our === undefined || their === undefined || their === 0 ? null : round(our / their)

/** A side's ceiling: its fastest step that did not saturate, and where it did. */
function ceiling(side: Side) {
  const passed = side.steps.filter((step) => !step.saturated)
  const best = passed.reduce<Step | undefined>(
    (top, step) => (!top || step.checksPerSecond > top.checksPerSecond ? step : top),
    undefined,
  )
  const firstSaturated = side.steps.find((step) => step.saturated)
  return {
    maxChecksPerSecond: best?.checksPerSecond ?? 0,
    cpuMsPerCheckAtMax: best?.cpuMsPerCheck ?? null,
    lagP99MsAtMax: best?.lagP99Ms ?? null,
    saturatedAt: firstSaturated
      ? { offeredPerSecond: firstSaturated.offeredPerSecond, why: firstSaturated.saturated }
      : `not reached up to ${maxRate}/s`,
    cpuMsPerCheckAtStartRate: side.steps[0]?.cpuMsPerCheck ?? null,
  }
}

/** Climbs the rate for every side at once, alternating their order, until all have saturated. */
async function climb(sides: Side[]): Promise<void> {
  for (let rate = startRate, index = 0; rate <= maxRate && sides.some((side) => !side.done); rate *= rateFactor) {
    const order = index++ % 2 === 0 ? sides : [...sides].reverse()
    for (const side of order) {
      if (side.done) continue
      const step = await side.step(rate)
      side.steps.push(step)
      process.stderr.write(`${side.name} ${JSON.stringify(step)}\n`)
      // One saturated step could be a neighbour's burst on a shared machine: stop at the second.
      if (step.saturated && side.steps.filter((each) => each.saturated).length >= 2) side.done = true
    }
  }
}

async function runProbeBench() {
  if (!existsSync(blackboxBinary)) {
    throw new Error(
      `blackbox_exporter not found at ${blackboxBinary}: apt-get install prometheus-blackbox-exporter, or set BLACKBOX_EXPORTER`,
    )
  }
  const target = spawnLines(process.execPath, ['--import', 'tsx', new URL('./target.ts', import.meta.url).pathname])
  const ports = JSON.parse(await target.firstLine) as { http: number; https: number }
  const targetPid = target.child.pid ?? 0

  const configPath = join(tmpdir(), `guard-bench-blackbox-${process.pid}.yml`)
  await writeFile(
    configPath,
    [
      'modules:',
      '  http:',
      '    prober: http',
      '    timeout: 5s',
      '  https:',
      '    prober: http',
      '    timeout: 5s',
      '    http:',
      '      tls_config:',
      '        insecure_skip_verify: true',
      '',
    ].join('\n'),
  )
  const exporterPort = await freePort()
  const exporter = spawn(
    blackboxBinary,
    [`--config.file=${configPath}`, `--web.listen-address=127.0.0.1:${exporterPort}`],
    { stdio: 'ignore' },
  )
  const exporterUrl = `http://127.0.0.1:${exporterPort}`
  const loadBefore = loadavg()
  const results: Record<string, unknown> = {}
  try {
    await waitForHttp(`${exporterUrl}/-/healthy`)
    for (const protocol of protocols) {
      const url = `${protocol}://127.0.0.1:${ports[protocol]}/`
      const guards = threadCounts.map((threads) => guardSide(url, threads, targetPid))
      const blackbox = blackboxSide(exporterUrl, exporter.pid ?? 0, url, targetPid)
      const sides = [...guards, blackbox]
      // Warm every side up (JIT, threads, TLS contexts) before anything is measured.
      for (const side of sides) await side.step(startRate / 2)
      await climb(sides)
      await Promise.all(sides.map((side) => side.close()))
      const theirs = ceiling(blackbox)
      results[protocol] = {
        guard: Object.fromEntries(
          guards.map((side, index) => {
            const ours = ceiling(side)
            return [
              `threads${threadCounts[index]}`,
              {
                ...ours,
                ratios: {
                  maxChecksPerSecond: ratio(ours.maxChecksPerSecond, theirs.maxChecksPerSecond),
                  cpuMsPerCheckAtMax: ratio(
                    ours.cpuMsPerCheckAtMax ?? undefined,
                    theirs.cpuMsPerCheckAtMax ?? undefined,
                  ),
                  cpuMsPerCheckAtStartRate: ratio(
                    ours.cpuMsPerCheckAtStartRate ?? undefined,
                    theirs.cpuMsPerCheckAtStartRate ?? undefined,
                  ),
                },
                steps: side.steps,
              },
            ]
          }),
        ),
        blackboxExporter: { ...theirs, steps: blackbox.steps },
      }
    }
    return {
      bench: 'probe',
      cores: availableParallelism(),
      loadAverageBefore: loadBefore.map((value) => round(value)),
      loadAverageAfter: loadavg().map((value) => round(value)),
      intervalMs,
      concurrency,
      stepSeconds,
      startRate,
      rateFactor,
      maxLagMs,
      ...results,
      note: 'ratios are ours / blackbox_exporter: above 1 is better for maxChecksPerSecond, below 1 is better for CPU. cpuMsPerCheck counts the side under test (for Guard: the whole probe process, check threads included; for blackbox_exporter: its process, not the scheduler fetching /probe); the target runs on the same cores.',
    }
  } finally {
    exporter.kill('SIGTERM')
    target.child.kill('SIGTERM')
    await rm(configPath, { force: true })
  }
}

process.stdout.write(`${JSON.stringify(await runProbeBench(), null, 2)}\n`)
