import { spawn, spawnSync } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { MonitorTarget } from '@guard/shared'
import { checkTarget } from '../../probe/src/checkers/index.ts'

/**
 * The probe's cost per SMTP, IMAP, POP3 and SSH check against local servers (another process):
 * CPU-ms per check of this process (user + system) over BENCH_MAIL_CHECKS (300) sequential checks
 * after 30 of warm-up, a TCP check as the reference; and the RSS ssh2 adds when first imported (the
 * mail checks load no library). Run by hand: `npx tsx bench/mail-ssh/run.ts`. Prints JSON.
 */
const CHECKS = Number(process.env.BENCH_MAIL_CHECKS ?? 300)
const WARMUP = 30
const probeDir = fileURLToPath(new URL('../../probe/', import.meta.url))

/** Node's modules a probe has loaded before its first check of these kinds. */
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

/** RSS and heap a library adds when imported, in a fresh process that already has the probe's builtins. */
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
const first = await createInterface({ input: servers.stdout! })[Symbol.asyncIterator]().next()
const ports = JSON.parse(first.value as string) as {
  smtp: number
  smtpPlain: number
  imap: number
  imapTls: number
  pop3: number
  ssh: number
  sshFingerprint: string
}
const host = '127.0.0.1'
const login = { username: 'bench', secrets: { password: 'bench-password' } }

const cases: Array<[string, MonitorTarget]> = [
  ['tcp (reference)', { kind: 'tcp', host, port: ports.ssh }],
  ['smtp plain', { kind: 'smtp', host, port: ports.smtpPlain, tls: 'none' }],
  ['smtp starttls', { kind: 'smtp', host, port: ports.smtp, ignoreTlsErrors: true }],
  ['smtp starttls + auth', { kind: 'smtp', host, port: ports.smtp, ignoreTlsErrors: true, ...login }],
  ['imap starttls + login', { kind: 'imap', host, port: ports.imap, tls: 'starttls', ignoreTlsErrors: true, ...login }],
  [
    'imap implicit tls + login',
    { kind: 'imap', host, port: ports.imapTls, tls: 'implicit', ignoreTlsErrors: true, ...login },
  ],
  ['pop3 stls + user/pass', { kind: 'pop3', host, port: ports.pop3, tls: 'starttls', ignoreTlsErrors: true, ...login }],
  ['ssh identification', { kind: 'ssh', host, port: ports.ssh }],
  ['ssh pinned host key (key exchange)', { kind: 'ssh', host, port: ports.ssh, hostKeySha256: ports.sshFingerprint }],
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

console.log(JSON.stringify({ checks: CHECKS, perCheck, library: { ssh2: libraryCost('ssh2') } }, null, 2))
