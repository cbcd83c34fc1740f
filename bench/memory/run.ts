import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { freePort } from '@guard/shared/testing'
import { type GuardProcess, seedDataDir, spawnGuard } from '../../test/support/spawn-guard.ts'
import { processMemory } from './process-memory.ts'

/**
 * bench/memory: the resident memory of one `guard start` (embedded mode: PGlite, chDB, the
 * in-process bus and a probe in one process), as `npm start` runs it (MALLOC_ARENA_MAX=2), with
 * BENCH_MEMORY_MONITORS (0,100,1000) HTTP monitors at 60 s against a local fixture, each count in
 * a fresh Guard, sampled every 15 s for BENCH_MEMORY_MINUTES (5) after the monitors are created.
 * The ceiling it is read against, measured in the same run: the floor of Node with both engines
 * open and empty (bench/memory/floor.ts). Settings under test pass through the environment
 * (GUARD_PGLITE_SHARED_BUFFERS, NODE_OPTIONS). Prints JSON.
 */
const counts = (process.env.BENCH_MEMORY_MONITORS ?? '0,100,1000').split(',').map(Number)
const minutes = Number(process.env.BENCH_MEMORY_MINUTES ?? 5)
const SAMPLE_EVERY_MS = 15_000
const MB = 1024 * 1024
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const progress = (message: string) =>
  process.stderr.write(`[memory ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
const env = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' }

function firstLine(args: string[], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...extraEnv },
  })
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
  return { child, line }
}

function metric(text: string, name: string): number {
  return Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN)
}

async function sample(guard: GuardProcess, url: string, apiKey: string) {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${apiKey}` } })).text()
  const inProcess = (name: string) => Math.round(metric(text, `guard_collector_${name}`) / MB)
  return {
    at: Date.now(),
    ...(await processMemory(guard.child.pid!)),
    jsHeapUsedMB: inProcess('nodejs_heap_size_used_bytes'),
    jsHeapTotalMB: inProcess('nodejs_heap_size_total_bytes'),
    externalMB: inProcess('nodejs_external_memory_bytes'),
    pgliteWasmMB: inProcess('pglite_memory_bytes'),
    chdbTrackedMB: inProcess('chdb_memory_bytes'),
  }
}

async function measure(monitors: number, ports: number[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'guard-memory-'))
  await seedDataDir(dataDir)
  const port = await freePort()
  const guard = spawnGuard(['start'], {
    ...env,
    GUARD_DATA_DIR: dataDir,
    GUARD_IDENTITY_PORT: String(await freePort()),
    GUARD_COLLECTOR_PORT: String(port),
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    GUARD_RATE_LIMIT_WRITE: '100000000',
  })
  try {
    await guard.waitFor(/credentials saved to/, 180_000)
    const apiKey = guard.output().match(/api key: (guard_\S+)/)?.[1] ?? ''
    const url = `http://127.0.0.1:${port}`
    for (let index = 0; index < monitors; index += 1) {
      const response = await fetch(`${url}/api/domains`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${ports[index % ports.length]}/m/${index}`,
          name: `memory-${index}`,
          checkInterval: 60,
        }),
      })
      if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`)
    }
    progress(`${monitors} monitors created; sampling for ${minutes} min`)
    const samples = []
    const end = Date.now() + minutes * 60_000
    while (Date.now() < end) {
      await sleep(SAMPLE_EVERY_MS)
      samples.push(await sample(guard, url, apiKey))
    }
    const last = samples.at(-1)!
    const half = samples.slice(Math.floor(samples.length / 2))
    const slope = half.length > 1 ? (last.rssMB - half[0]!.rssMB) / ((last.at - half[0]!.at) / 60_000) : 0
    return { monitors, last: { ...last, at: undefined }, rssSecondHalfMBPerMinute: Math.round(slope * 10) / 10 }
  } finally {
    await guard.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const floorDir = await mkdtemp(join(tmpdir(), 'guard-memory-floor-'))
await seedDataDir(floorDir)
const floor = JSON.parse(await firstLine([new URL('./floor.ts', import.meta.url).pathname, floorDir], env).line)
const fixture = firstLine([new URL('../scale/fixture.ts', import.meta.url).pathname, '2'])
try {
  const { ports } = JSON.parse(await fixture.line) as { ports: number[] }
  const loadBefore = loadavg()[0]
  const runs = []
  for (const monitors of counts) runs.push(await measure(monitors, ports))
  const floorMB = floor.both.rssMB as number
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'memory',
        settings: {
          MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX,
          GUARD_PGLITE_SHARED_BUFFERS: process.env.GUARD_PGLITE_SHARED_BUFFERS ?? '32MB (default)',
          NODE_OPTIONS: process.env.NODE_OPTIONS ?? '',
          minutes,
        },
        floor,
        runs: runs.map((run) => ({ ...run, ratioToEnginesFloor: Math.round((run.last.rssMB / floorMB) * 100) / 100 })),
        goalMB: 350,
        load: { before: loadBefore, after: loadavg()[0] },
      },
      null,
      2,
    )}\n`,
  )
} finally {
  fixture.child.kill()
}
