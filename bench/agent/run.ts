import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AGENT_NODE_FLAGS } from '@guard/agent'
import { buildCollectorApp, collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  agentHeartbeat,
  createFastify,
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  listeningUrl,
  newId,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
} from '@guard/shared'
import { sampleHeartbeat, startPostgres } from '@guard/shared/testing'
import autocannon from 'autocannon'
import {
  consumeDeviceHeartbeats,
  type HeartbeatIngestStats,
} from '../../collector/src/ingest/consume-device-heartbeats.ts'
import { generateDeviceToken } from '../../collector/src/services/devices/token.ts'

/**
 * bench/agent, two parts, printed as one JSON document:
 *
 * footprint: the real agent (`guard agent`, BENCH_AGENT_INTERVAL 10 s) posting to a local sink
 * for BENCH_AGENT_SECONDS (300), sampled every second from /proc, against an idle `node -e`
 * process over the same window. The agent runs as `guard agent install`'s unit starts it (with
 * AGENT_NODE_FLAGS); a second one, started by hand without them, runs beside it over the same
 * window. CPU is the share of one core, the agent's own and that of the commands it ran (df, ps,
 * dpkg-query, … counted once they exit); RSS in MB (mean and peak).
 *
 * ingest: BENCH_DEVICES (5000) enrolled devices; autocannon (BENCH_CONNECTIONS 50, BENCH_SECONDS
 * 10) posts their heartbeats to POST /agent (token check, validation, durable publish on the
 * bus); the rate counts a heartbeat only once the consumer stored it in ClickHouse and PostgreSQL.
 * The ceiling is a bare fastify route that parses the same body, in the same process and run.
 * BENCH_PARTS (`ingest,footprint`) picks the parts.
 */
const agentSeconds = Number(process.env.BENCH_AGENT_SECONDS ?? 300)
const agentInterval = Number(process.env.BENCH_AGENT_INTERVAL ?? 10)
const devices = Number(process.env.BENCH_DEVICES ?? 5000)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
/** `footprint`, `ingest` or both (default), comma-separated. */
const parts = (process.env.BENCH_PARTS ?? 'ingest,footprint').split(',')
const round = (value: number) => Number(value.toPrecision(4))
const TICKS = 100 // USER_HZ on Linux
const GUARD_BIN = fileURLToPath(new URL('../../bin/guard.mjs', import.meta.url))

async function sample(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  // Fields from the 3rd (state) on: utime, stime, cutime, cstime are the 14th to 17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const cpuTicks = Number(fields[11]) + Number(fields[12])
  const childTicks = Number(fields[13]) + Number(fields[14])
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const rssKb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0)
  return { cpuSeconds: cpuTicks / TICKS, commandsCpuSeconds: childTicks / TICKS, rssMb: rssKb / 1024 }
}

/** A collector stand-in answering 200 to every heartbeat, counting them. */
async function startSink() {
  const sink = { received: 0, port: 0, close: () => server.close() }
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      sink.received += 1
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  sink.port = (server.address() as { port: number }).port
  return sink
}

async function footprint(dir: string) {
  const sinks = { installed: await startSink(), byHand: await startSink() }
  const startAgent = (who: keyof typeof sinks, nodeFlags: readonly string[]) =>
    spawn(process.execPath, [...nodeFlags, GUARD_BIN, 'agent'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        GUARD_COLLECTOR_URL: `http://127.0.0.1:${sinks[who].port}`,
        GUARD_DEVICE_ID: `bench-device-${who}`,
        GUARD_DEVICE_TOKEN: 'gdt_bench',
        GUARD_AGENT_INTERVAL_SECONDS: String(agentInterval),
        GUARD_AGENT_SPOOL_DIR: join(dir, `spool-${who}`),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  const children = {
    installed: startAgent('installed', AGENT_NODE_FLAGS),
    byHand: startAgent('byHand', []),
    idle: spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }),
  }
  type Who = keyof typeof children
  const everyone = Object.keys(children) as Who[]
  const sampleAll = async () =>
    Object.fromEntries(
      await Promise.all(everyone.map(async (who) => [who, await sample(children[who].pid!)])),
    ) as Record<Who, Awaited<ReturnType<typeof sample>>>
  try {
    // Let them load their code before the window starts, as an agent running for days would have.
    await new Promise((resolve) => setTimeout(resolve, 5000))
    const first = await sampleAll()
    const rss: Record<Who, number[]> = { installed: [], byHand: [], idle: [] }
    const started = performance.now()
    while (performance.now() - started < agentSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const now = await sampleAll()
      for (const who of everyone) rss[who].push(now[who].rssMb)
    }
    const elapsed = (performance.now() - started) / 1000
    const last = await sampleAll()
    const cpu = (who: Who, part: 'cpuSeconds' | 'commandsCpuSeconds' = 'cpuSeconds') =>
      round(((last[who][part] - first[who][part]) / elapsed) * 100)
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
    return {
      seconds: round(elapsed),
      intervalSeconds: agentInterval,
      agentNodeFlags: AGENT_NODE_FLAGS.join(' '),
      heartbeatsReceived: sinks.installed.received,
      agentCpuPercentOfOneCore: cpu('installed'),
      agentCommandsCpuPercentOfOneCore: cpu('installed', 'commandsCpuSeconds'),
      idleNodeCpuPercentOfOneCore: cpu('idle'),
      agentRssMbMean: round(mean(rss.installed)),
      agentRssMbPeak: round(Math.max(...rss.installed)),
      idleNodeRssMbMean: round(mean(rss.idle)),
      rssRatioToIdleNode: round(mean(rss.installed) / mean(rss.idle)),
      startedByHandWithoutFlags: {
        heartbeatsReceived: sinks.byHand.received,
        agentCpuPercentOfOneCore: cpu('byHand'),
        agentRssMbMean: round(mean(rss.byHand)),
        agentRssMbPeak: round(Math.max(...rss.byHand)),
      },
      goal: { cpuPercentBelow: 1, rssMbBelow: 60 },
    }
  } finally {
    for (const child of Object.values(children)) child.kill('SIGTERM')
    for (const sink of Object.values(sinks)) sink.close()
  }
}

async function ingest(dir: string) {
  const postgres = await startPostgres()
  let sql: RelationalStore | undefined
  try {
    sql = await openRelationalStore({ databaseUrl: postgres?.url, dataDir: dir })
    const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir: dir })
    const env = collectorEnvSchema.parse({ GUARD_INGEST_MAX_WAIT_MS: '100', GUARD_AGENT_MAX_PER_MINUTE: '100000' })
    const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
    const bus = createInProcessBus({ streams: guardStreams })
    const { ctx } = await prepareCollector({ env, log, sql, timeseries, bus })
    const fleet = Array.from({ length: devices }, () => ({ id: newId(), ...generateDeviceToken() }))
    await sql.query(
      `INSERT INTO monitoring.devices (id, organization_id, name, token_hash, token_prefix)
       SELECT id, $3, id, hash, 'gdt_' FROM unnest($1::text[], $2::text[]) AS t(id, hash)`,
      [fleet.map((device) => device.id), fleet.map((device) => device.hash), DEFAULT_ORGANIZATION.id],
    )
    let sequence = 0
    const base = Date.now() - 3_600_000
    const request = () => {
      const index = sequence++
      const device = fleet[index % fleet.length]!
      const body = sampleHeartbeat(device.id, { cpu: index % 70 }, { timestamp: new Date(base + index).toISOString() })
      return { token: device.token, body: JSON.stringify(body) }
    }
    const run = (url: string) =>
      autocannon({
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/agent',
            setupRequest: (req) => {
              const next = request()
              return {
                ...req,
                headers: { authorization: `Bearer ${next.token}`, 'content-type': 'application/json' },
                body: next.body,
              }
            },
          },
        ],
      })

    const bare = createFastify({ logger: log })
    bare.post('/agent', async (req) => {
      agentHeartbeat.parse(req.body)
      return { success: true }
    })
    await bare.listen({ host: '127.0.0.1', port: 0 })
    const bareResult = await run(listeningUrl(bare))
    await bare.close()

    const app = await buildCollectorApp(ctx)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const stats: HeartbeatIngestStats = { stored: 0, duplicates: 0, deadLettered: 0, batches: 0 }
    const consumer = await consumeDeviceHeartbeats(ctx, stats)
    const started = performance.now()
    const guardResult = await run(listeningUrl(app))
    const accepted = guardResult['2xx']
    const deadline = Date.now() + 600_000
    while (stats.stored + stats.duplicates < accepted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const endToEndSeconds = (performance.now() - started) / 1000
    await consumer.stop()
    await app.close()
    await timeseries.close()

    const required = devices / 30
    const endToEnd = stats.stored / endToEndSeconds
    return {
      devices,
      connections,
      seconds,
      relational: sql.engine,
      timeseries: timeseries.engine,
      bareRoutePerSecond: round(bareResult.requests.average),
      acceptedPerSecond: round(accepted / seconds),
      non2xx: guardResult.non2xx,
      storedEndToEndPerSecond: round(endToEnd),
      stored: stats.stored,
      batches: stats.batches,
      p99LatencyMs: guardResult.latency.p99,
      ratioToBareRoute: round(accepted / seconds / bareResult.requests.average),
      requiredFor5000DevicesAt30s: round(required),
      headroom: round(endToEnd / required),
    }
  } finally {
    await sql?.close()
    await postgres?.stop()
  }
}

const dir = await mkdtemp(join(tmpdir(), 'guard-bench-agent-'))
try {
  const ingestFigures = parts.includes('ingest') ? await ingest(join(dir, 'ingest')) : undefined
  const footprintFigures = parts.includes('footprint') ? await footprint(dir) : undefined
  process.stdout.write(
    `${JSON.stringify({ bench: 'agent', footprint: footprintFigures, ingest: ingestFigures }, null, 2)}\n`,
  )
} finally {
  await rm(dir, { recursive: true, force: true })
}
