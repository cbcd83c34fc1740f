import { spawn, spawnSync } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { MonitorTarget } from '@guard/shared'
import { checkTarget } from '../../probe/src/checkers/index.ts'

/**
 * The probe's cost per gRPC health, WebSocket and MQTT check against local servers (another
 * process): CPU-ms per check of this process (user + system) over BENCH_PROTOCOL_CHECKS (500)
 * sequential checks after 50 of warm-up (a TCP check as the reference), and the RSS each client library adds when first imported
 * (a fresh Node process per library). Prints JSON.
 */
const CHECKS = Number(process.env.BENCH_PROTOCOL_CHECKS ?? 500)
const WARMUP = 50
const probeDir = fileURLToPath(new URL('../../probe/', import.meta.url))

/** Node's modules a probe has loaded before its first gRPC, WebSocket or MQTT check. */
const PROBE_BUILTINS = [
  'http',
  'https',
  'tls',
  'net',
  'dns',
  'crypto',
  'zlib',
  'stream',
  'events',
  'url',
  'util',
  'dgram',
]

/**
 * RSS and heap a library adds when imported, in a fresh process that has already loaded the
 * builtins a probe has (otherwise `ws` would be charged for loading node:http and node:tls).
 */
function libraryCost(specifier: string) {
  const script = `
    for (const name of ${JSON.stringify(PROBE_BUILTINS)}) await import('node:' + name)
    const before = process.memoryUsage()
    await import(${JSON.stringify(specifier)})
    const after = process.memoryUsage()
    console.log(JSON.stringify({ rss: after.rss - before.rss, heap: after.heapUsed - before.heapUsed }))`
  const { stdout } = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: probeDir,
    encoding: 'utf8',
  })
  const { rss, heap } = JSON.parse(stdout) as { rss: number; heap: number }
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
  return { rssAddedMb: mb(rss), heapAddedMb: mb(heap) }
}

const servers = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./servers.ts', import.meta.url))], {
  stdio: ['pipe', 'pipe', 'inherit'],
})
const [line] = await createInterface({ input: servers.stdout! })
  [Symbol.asyncIterator]()
  .next()
  .then((next) => [next.value as string])
const ports = JSON.parse(line!) as Record<string, number>
const host = '127.0.0.1'

const cases: Array<[string, MonitorTarget]> = [
  ['tcp (reference)', { kind: 'tcp', host, port: ports.websocket! }],
  ['grpc', { kind: 'grpc', host, port: ports.grpc! }],
  ['grpc tls', { kind: 'grpc', host, port: ports.grpcTls!, tls: true, ignoreTlsErrors: true }],
  ['websocket', { kind: 'websocket', host, port: ports.websocket! }],
  ['websocket send+reply', { kind: 'websocket', host, port: ports.websocket!, send: 'ping', replyContains: 'ping' }],
  ['websocket tls', { kind: 'websocket', host, port: ports.websocketTls!, tls: true, ignoreTlsErrors: true }],
  ['mqtt', { kind: 'mqtt', host, port: ports.mqtt! }],
  ['mqtt retained message', { kind: 'mqtt', host, port: ports.mqtt!, topic: 'bench/state', messageContains: 'ok' }],
  ['mqtt tls', { kind: 'mqtt', host, port: ports.mqttTls!, tls: true, ignoreTlsErrors: true }],
]

const check = (target: MonitorTarget) =>
  checkTarget(target, { timeoutMs: 5000, signal: AbortSignal.timeout(5000), allowPrivate: true })

const perCheck: Record<string, { cpuMsPerCheck: number; wallMsPerCheck: number; down: number }> = {}
for (const [name, target] of cases) {
  for (let index = 0; index < WARMUP; index++) await check(target)
  let down = 0
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let index = 0; index < CHECKS; index++) if ((await check(target)).status !== 'up') down++
  const used = process.cpuUsage(cpu)
  perCheck[name] = {
    cpuMsPerCheck: Math.round(((used.user + used.system) / 1000 / CHECKS) * 100) / 100,
    wallMsPerCheck: Math.round(((performance.now() - started) / CHECKS) * 100) / 100,
    down,
  }
}
servers.stdin!.end()

console.log(
  JSON.stringify(
    {
      checks: CHECKS,
      perCheck,
      library: {
        '@grpc/grpc-js': libraryCost('@grpc/grpc-js'),
        ws: libraryCost('ws'),
        mqtt: libraryCost('mqtt'),
      },
    },
    null,
    2,
  ),
)
