/**
 * One fresh probe process for the benchmark's memory figures, run by run.ts with --expose-gc.
 * `memory.ts http` runs BENCH_CHECKS HTTP checks; `memory.ts all` runs the same, then one check of
 * every case of the kinds served, noting what each first check adds. Every figure is taken after
 * a full GC. Reads the servers' JSON line from BENCH_SERVED; prints one JSON line (MemoryReport).
 */
import type { MemoryFigure, MemoryReport } from './memory-report.ts'

const mode = process.argv[2]
if (mode !== 'http' && mode !== 'all') throw new Error('usage: memory.ts http|all')
const checks = Number(process.env.BENCH_CHECKS ?? 200)

async function settled(): Promise<MemoryFigure> {
  const gc = globalThis.gc ?? fail('run with --expose-gc')
  // Sockets and timers a check closed are released on the next turns of the loop, then collected.
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setImmediate(resolve))
    gc()
  }
  const { rss, heapUsed } = process.memoryUsage()
  return { rssMb: mb(rss), heapMb: mb(heapUsed) }
}

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10

function fail(reason: string): never {
  throw new Error(reason)
}

// Before any of the probe's modules, so the figure is Node and tsx alone.
const runtime = await settled()
const { benchCases, credentialsKey, servedTargets, selectedKinds } = await import('./cases.ts')
const { runCheck } = await import('../../probe/src/run-check.ts')
const served = servedTargets.parse(JSON.parse(process.env.BENCH_SERVED ?? fail('BENCH_SERVED is not set')))
const cases = benchCases(selectedKinds(), served)
const down: string[] = []

async function checkOnce(name: string, monitor: (typeof cases)[number]['monitor']) {
  const result = await runCheck(monitor, 'bench', true, { credentialsKey })
  if (result.status !== 'up') down.push(`${name}: ${result.status} ${result.errorKind ?? ''} ${result.error ?? ''}`)
}

const modulesLoaded = await settled()
const http = cases.find((entry) => entry.kind === 'http') ?? fail('no http case')
for (let index = 0; index < checks; index++) await checkOnce(http.name, http.monitor)
const afterHttp = await settled()

const firstCheckAdds: MemoryReport['firstCheckAdds'] = {}
if (mode === 'all') {
  let before = afterHttp
  for (const entry of cases) {
    await checkOnce(entry.name, entry.monitor)
    const after = await settled()
    firstCheckAdds[entry.name] = {
      rssMb: Math.round((after.rssMb - before.rssMb) * 10) / 10,
      heapMb: Math.round((after.heapMb - before.heapMb) * 10) / 10,
    }
    before = after
  }
}

const report: MemoryReport = { runtime, modulesLoaded, afterHttp, final: await settled(), firstCheckAdds, down }
process.stdout.write(`${JSON.stringify(report)}\n`)
// Drivers may keep an idle timer or two; the figures are taken.
process.exit(0)
