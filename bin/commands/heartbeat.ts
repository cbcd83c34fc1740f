import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { constants } from 'node:os'
import { type Io, parseArgs, processIo, UsageError } from '../cli-kit.ts'

export const heartbeatUsage = `Usage: guard heartbeat [--url PING_URL] [--rid ID] [--no-start] -- COMMAND [ARG]...

Runs COMMAND as a heartbeat monitor's job: pings PING_URL/start, runs it (its output passes
through), then pings PING_URL/<exit code> with the last 100 kB of its output as the body, so the
run log shows what it printed and the heartbeat goes down with exit_code when it fails.
--url defaults to GUARD_PING_URL; --rid (default: a new id per run) pairs the start and end when
runs overlap; --no-start skips the start ping (no run duration, no too_long). A ping that fails
is retried and then reported on stderr, never stopping the job. Exit status: the command's
(128 + the signal number when a signal ended it), 2 usage error.`

/** What the body of the end ping keeps, as the collector does. */
const KEPT_OUTPUT_BYTES = 100_000
const PING_TIMEOUT_MS = 10_000
const PING_ATTEMPTS = 3

/** The newest `limit` bytes written to it. */
function tail(limit: number) {
  let chunks: Buffer[] = []
  let size = 0
  return {
    push(chunk: Buffer) {
      chunks.push(chunk)
      size += chunk.length
      while (size - chunks[0]!.length >= limit) size -= chunks.shift()!.length
    },
    text() {
      const all = Buffer.concat(chunks)
      chunks = [all]
      return all.subarray(Math.max(0, all.length - limit)).toString('utf8')
    },
  }
}

async function ping(url: string, body: string | undefined, io: Io, fetcher: typeof fetch): Promise<void> {
  let failure = ''
  for (let attempt = 1; attempt <= PING_ATTEMPTS; attempt += 1) {
    try {
      const response = await fetcher(url, {
        method: 'POST',
        ...(body ? { body, headers: { 'content-type': 'text/plain; charset=utf-8' } } : {}),
        signal: AbortSignal.timeout(PING_TIMEOUT_MS),
      })
      // 404 (unknown token) and 429 (too many pings) will not change on a retry.
      if (response.ok || response.status === 404 || response.status === 429) {
        if (!response.ok) io.stderr(`guard heartbeat: ${new URL(url).pathname} answered ${response.status}\n`)
        return
      }
      failure = `answered ${response.status}`
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error)
    }
    if (attempt < PING_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, attempt * 500))
  }
  io.stderr(`guard heartbeat: ping ${new URL(url).pathname} failed (${failure}); the job is not affected\n`)
}

const withRid = (base: string, suffix: string, rid: string) => {
  const url = new URL(`${base.replace(/\/+$/, '')}${suffix}`)
  url.searchParams.set('rid', rid)
  return url.toString()
}

/** `guard heartbeat … -- COMMAND`: resolves with the command's exit status. */
export async function runHeartbeat(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = processIo,
  fetcher: typeof fetch = fetch,
): Promise<number> {
  const separator = argv.indexOf('--')
  const own = separator === -1 ? argv : argv.slice(0, separator)
  const command = separator === -1 ? [] : argv.slice(separator + 1)
  const { values } = parseArgs({
    args: own,
    options: { url: { type: 'string' }, rid: { type: 'string' }, 'no-start': { type: 'boolean' } },
    usage: heartbeatUsage,
    scope: 'heartbeat',
  })
  const base = values.url ?? env.GUARD_PING_URL
  if (!base) throw new UsageError('--url (or GUARD_PING_URL) is required', 'heartbeat')
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) {
    throw new UsageError(`--url must be an http(s) ping URL, not '${base}'`, 'heartbeat')
  }
  const [program, ...programArgs] = command
  if (!program) throw new UsageError('missing the command to run after --', 'heartbeat')
  const rid = values.rid ?? randomUUID()
  if (!values['no-start']) await ping(withRid(base, '/start', rid), undefined, io, fetcher)
  const output = tail(KEPT_OUTPUT_BYTES)
  const status = await new Promise<number>((resolve) => {
    const child = spawn(program, programArgs, { stdio: ['inherit', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk: Buffer) => {
      output.push(chunk)
      io.stdout(chunk.toString())
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output.push(chunk)
      io.stderr(chunk.toString())
    })
    child.on('error', (error) => {
      io.stderr(`guard heartbeat: cannot run ${program}: ${error.message}\n`)
      output.push(Buffer.from(`cannot run ${program}: ${error.message}\n`))
      // What a shell answers for a command it cannot find or run.
      resolve((error as NodeJS.ErrnoException).code === 'ENOENT' ? 127 : 126)
    })
    child.on('close', (code, signal) => {
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0))
    })
  })
  // The exit code in the URL is one byte, as a shell's $? is.
  await ping(withRid(base, `/${Math.min(status, 255)}`, rid), output.text() || undefined, io, fetcher)
  return status
}
