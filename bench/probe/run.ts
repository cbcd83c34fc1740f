import { type ChildProcess, spawn } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createInProcessBus, encodeCheckResult, guardStreams, type MonitorConfig } from '@guard/shared'
import { runCheck } from '../../probe/src/run-check.ts'
import { Scheduler } from '../../probe/src/scheduler.ts'

/**
 * bench/probe: N monitors checking a local target over plain HTTP and HTTPS with a fresh
 * connection per check, run by Guard's scheduler and checkers, then by Prometheus'
 * blackbox_exporter probing the same targets at the same concurrency, driven by the same
 * scheduler as Prometheus would scrape it. Prints JSON with both sides' figures and our/their ratios.
 *
 * Environment: BENCH_MONITORS (200), BENCH_INTERVAL_MS (1000), BENCH_CONCURRENCY (50),
 * BENCH_SECONDS (10) per run, BENCH_ROUNDS (2) per side and protocol, BLACKBOX_EXPORTER (path of the binary).
 */
const monitorsCount = Number(process.env.BENCH_MONITORS ?? 200)
const intervalMs = Number(process.env.BENCH_INTERVAL_MS ?? 1000)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const blackboxBinary = process.env.BLACKBOX_EXPORTER ?? '/usr/bin/prometheus-blackbox-exporter'
const CLOCK_TICKS_PER_SECOND = 100

interface Figures {
  checks: number
  failures: number
  checksPerSecond: number
  cpuSecondsPerCheck: number
  lagP50Ms: number
  lagP99Ms: number
}

const round = (value: number, digits = 3) => Number(value.toPrecision(digits))

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

function monitorsFor(url: string): MonitorConfig[] {
  return Array.from({ length: monitorsCount }, (_, index) => ({
    v: 1,
    id: `bench-${index}`,
    organizationId: 'bench',
    target: { kind: 'http', url, method: 'GET', ignoreTlsErrors: true },
    // Below the contract's 5 s minimum on purpose: the scheduler takes any interval, and a
    // short one loads the probe without thousands of monitors.
    intervalSeconds: intervalMs / 1000,
    timeoutSeconds: 5,
    locations: ['bench'],
    enabled: true,
  }))
}

/** Runs the monitors for the bench duration with `check`, returning lags, counts and the wall time. */
async function drive(monitors: MonitorConfig[], check: (monitor: MonitorConfig) => Promise<boolean>) {
  const lags: number[] = []
  let checks = 0
  let failures = 0
  const scheduler = new Scheduler({
    concurrency,
    onLag: (lag) => lags.push(lag),
    run: async (monitor) => {
      if (!(await check(monitor))) failures += 1
      checks += 1
    },
  })
  const started = performance.now()
  for (const monitor of monitors) scheduler.upsert(monitor)
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  await scheduler.stop()
  return { lags, checks, failures, wallSeconds: (performance.now() - started) / 1000 }
}

interface Measured {
  lags: number[]
  checks: number
  failures: number
  wallSeconds: number
  cpuSeconds: number
}

/** Pools several rounds of one side: totals over totals, percentiles over every lag. */
function pooled(rounds: Measured[]): Figures {
  const run = {
    lags: rounds.flatMap((round) => round.lags),
    checks: rounds.reduce((sum, round) => sum + round.checks, 0),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    wallSeconds: rounds.reduce((sum, round) => sum + round.wallSeconds, 0),
  }
  return figures(
    run,
    rounds.reduce((sum, round) => sum + round.cpuSeconds, 0),
  )
}

function figures(run: Omit<Measured, 'cpuSeconds'>, cpuSeconds: number): Figures {
  return {
    checks: run.checks,
    failures: run.failures,
    checksPerSecond: round(run.checks / run.wallSeconds),
    cpuSecondsPerCheck: round(cpuSeconds / Math.max(1, run.checks)),
    lagP50Ms: round(percentile(run.lags, 50)),
    lagP99Ms: round(percentile(run.lags, 99)),
  }
}

async function ours(url: string): Promise<Measured> {
  const bus = createInProcessBus({ streams: guardStreams })
  const before = process.cpuUsage()
  const run = await drive(monitorsFor(url), async (monitor) => {
    const result = await runCheck(monitor, 'bench', true)
    // Encode and store it as the probe does, so the figure covers the whole path to the stream.
    await bus.publish('results.bench', encodeCheckResult(result), { msgId: result.id })
    return result.status === 'up'
  })
  const used = process.cpuUsage(before)
  await bus.close()
  return { ...run, cpuSeconds: (used.user + used.system) / 1e6 }
}

async function processCpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? []
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND
}

async function blackbox(exporterUrl: string, pid: number, url: string, module: string): Promise<Measured> {
  const before = await processCpuSeconds(pid)
  const run = await drive(monitorsFor(url), async () => {
    const response = await fetch(`${exporterUrl}/probe?module=${module}&target=${encodeURIComponent(url)}`)
    return /^probe_success 1$/m.test(await response.text())
  })
  const after = await processCpuSeconds(pid)
  return { ...run, cpuSeconds: after - before }
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

const ratio = (our: number, their: number) => (their === 0 ? null : round(our / their))

function compare(our: Figures, their: Figures) {
  return {
    guard: our,
    blackboxExporter: their,
    ratios: {
      checksPerSecond: ratio(our.checksPerSecond, their.checksPerSecond),
      cpuSecondsPerCheck: ratio(our.cpuSecondsPerCheck, their.cpuSecondsPerCheck),
      lagP50Ms: ratio(our.lagP50Ms, their.lagP50Ms),
      lagP99Ms: ratio(our.lagP99Ms, their.lagP99Ms),
    },
  }
}

async function runProbeBench() {
  const target = spawnLines(process.execPath, ['--import', 'tsx', new URL('./target.ts', import.meta.url).pathname])
  const ports = JSON.parse(await target.firstLine) as { http: number; https: number }
  const httpUrl = `http://127.0.0.1:${ports.http}/`
  const httpsUrl = `https://127.0.0.1:${ports.https}/`

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
    {
      stdio: 'ignore',
    },
  )
  const exporterUrl = `http://127.0.0.1:${exporterPort}`
  try {
    await waitForHttp(`${exporterUrl}/-/healthy`)
    const pid = exporter.pid ?? 0
    // Warm both sides up (JIT, lazy imports, TLS contexts) before anything is measured.
    for (const url of [httpUrl, httpsUrl]) {
      await Promise.all(Array.from({ length: 20 }, () => runCheck(monitorsFor(url)[0]!, 'bench', true)))
      await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(
            `${exporterUrl}/probe?module=${url.startsWith('https') ? 'https' : 'http'}&target=${encodeURIComponent(url)}`,
          ).then((response) => response.text()),
        ),
      )
    }
    // Rounds alternate which side goes first, so load that drifts during the run (a shared
    // machine) falls on both sides alike.
    const measure = async (url: string, module: string) => {
      const our: Measured[] = []
      const their: Measured[] = []
      for (let round = 0; round < rounds; round++) {
        if (round % 2 === 0) {
          our.push(await ours(url))
          their.push(await blackbox(exporterUrl, pid, url, module))
        } else {
          their.push(await blackbox(exporterUrl, pid, url, module))
          our.push(await ours(url))
        }
      }
      return compare(pooled(our), pooled(their))
    }
    const http = await measure(httpUrl, 'http')
    const https = await measure(httpsUrl, 'https')
    return {
      bench: 'probe',
      monitors: monitorsCount,
      intervalMs,
      concurrency,
      secondsPerRun: seconds,
      rounds,
      http,
      https,
      note: 'ratios are ours / blackbox_exporter: above 1 is better for checksPerSecond, below 1 is better for the others',
    }
  } finally {
    exporter.kill('SIGTERM')
    target.child.kill('SIGTERM')
    await rm(configPath, { force: true })
  }
}

process.stdout.write(`${JSON.stringify(await runProbeBench(), null, 2)}\n`)
