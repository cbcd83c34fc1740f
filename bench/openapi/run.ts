import { performance } from 'node:perf_hooks'
import { buildCollectorApp } from '../../collector/src/app.ts'
import { collectorForTest } from '../../collector/src/test-support.ts'

/**
 * bench/openapi: the size of `GET /openapi.json` and how long the collector takes to answer it the
 * first time (when @fastify/swagger converts every route's zod schemas) and the second (cached),
 * on an embedded collector (PGlite + chDB), BENCH_RUNS (3) times in fresh apps of one process, as
 * wall and CPU milliseconds (CPU is steadier on a loaded machine). Also the number of shared
 * components and of `$ref`s to them.
 */
const round = (value: number) => Math.round(value * 10) / 10

const runs = Number(process.env.BENCH_RUNS ?? 3)

async function timed(app: Awaited<ReturnType<typeof buildCollectorApp>>) {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const response = await app.inject({ method: 'GET', url: '/openapi.json' })
  const used = process.cpuUsage(cpu)
  return { ms: round(performance.now() - started), cpuMs: round((used.user + used.system) / 1000), body: response.body }
}

async function main() {
  const harness = await collectorForTest()
  const measured = []
  let body = ''
  for (let run = 0; run < runs; run++) {
    const app = await buildCollectorApp(harness.ctx, {})
    await app.ready()
    const first = await timed(app)
    const second = await timed(app)
    measured.push({ firstMs: first.ms, firstCpuMs: first.cpuMs, secondMs: second.ms, secondCpuMs: second.cpuMs })
    body = first.body
    await app.close()
  }
  await harness.close()
  const document = JSON.parse(body) as { components?: { schemas?: Record<string, unknown> } }
  console.log(
    JSON.stringify({
      bytes: Buffer.byteLength(body),
      components: Object.keys(document.components?.schemas ?? {}).length,
      refs: body.split('"$ref"').length - 1,
      runs: measured,
    }),
  )
}

await main()
