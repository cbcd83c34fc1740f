import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { envTypes } from '@guard/shared'
import {
  answerHelp,
  COLLECTOR,
  EXIT,
  fetchService,
  type Io,
  parseArgs,
  pickAction,
  processIo,
  UsageError,
} from '../cli-kit.ts'
import { collectorApiAccess } from './api-access.ts'

export const syntheticUsage = `Usage: guard synthetic run FILE [--location L] [--timeout SECONDS] [--secret NAME[=VALUE]]... [--artifacts DIR]

Runs a browser script on this machine through the probe's runner (own browser, script process
under Node's permission model, SSRF guard) and prints the run as JSON: steps, Web Vitals per
navigation, console errors, failed requests, and on failure the screenshot and trace written
to --artifacts (default: a directory under the system's temporary directory). FILE holds
\`test('name', async ({ page }) => { … })\`; see docs for the API.
--secret NAME gives the script secrets.NAME from the environment variable NAME (or NAME=VALUE);
secrets are redacted from the output. --timeout: the whole run's deadline (default 60).
--location L runs it instead on a probe with a browser at location L, through the collector's API
(a disabled browser check is created, run now, and deleted; its run and artifact URLs are printed);
it needs GUARD_API_KEY and GUARD_COLLECTOR_URL (or credentials.json). Exit 69: no probe with a
browser is connected there.
Env: GUARD_PROBE_BROWSER_PATH (default /usr/bin/chromium), GUARD_ALLOW_PRIVATE_TARGETS=1 to
reach private and loopback addresses. Exit status: 0 passed, 1 failed, 2 usage error.`

function parseSecrets(specs: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const secrets: Record<string, string> = {}
  for (const spec of specs) {
    const [name = '', ...rest] = spec.split('=')
    const value = rest.length > 0 ? rest.join('=') : env[name]
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`--secret '${name}' is not a valid name`, 'synthetic run')
    if (value === undefined) throw new UsageError(`--secret ${name}: no environment variable ${name}`, 'synthetic run')
    secrets[name] = value
  }
  return secrets
}

/** `guard synthetic run FILE`: one local run of a browser script; returns the exit status. */
export async function runSyntheticCommand(args: string[], env: NodeJS.ProcessEnv = process.env, io: Io = processIo) {
  answerHelp(args, syntheticUsage)
  const [action, ...rest] = args
  pickAction(action, ['run'], 'synthetic')
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      timeout: { type: 'string' },
      secret: { type: 'string', multiple: true },
      artifacts: { type: 'string' },
      location: { type: 'string', short: 'l' },
    },
    allowPositionals: true,
    usage: syntheticUsage,
    scope: 'synthetic run',
  })
  const [file, ...extra] = positionals
  if (file === undefined || extra.length > 0) throw new UsageError('give exactly one script FILE', 'synthetic run')
  const timeoutSeconds = Number(values.timeout ?? '60')
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 600) {
    throw new UsageError('--timeout must be a whole number of seconds from 1 to 600', 'synthetic run')
  }
  const script = await readFile(file, 'utf8').catch(() => {
    throw new UsageError(`cannot read ${file}`, 'synthetic run')
  })
  const secrets = parseSecrets(values.secret ?? [], env)
  if (values.location !== undefined) {
    const artifactsDir = values.artifacts ?? join(tmpdir(), 'guard-synthetic')
    return runOnProbe({ script, secrets, timeoutSeconds, location: values.location, file, artifactsDir }, env, io)
  }
  const { runBrowserScript } = await import('@guard/probe/browser')
  const result = await runBrowserScript(
    { script, secrets, timeoutMs: timeoutSeconds * 1000 },
    {
      browserPath: env.GUARD_PROBE_BROWSER_PATH ?? '/usr/bin/chromium',
      artifactsDir: values.artifacts ?? join(tmpdir(), 'guard-synthetic'),
      allowPrivate: envTypes.flag.parse(env.GUARD_ALLOW_PRIVATE_TARGETS),
      onLog: (text) => io.stderr(`${text}\n`),
    },
  )
  io.stdout(`${JSON.stringify(result, null, 2)}\n`)
  return result.status === 'passed' ? 0 : 1
}

/**
 * The script run once on a probe of `location` through the API: a disabled browser check holds
 * it while POST /api/synthetics/{id}/run runs it, and is deleted afterwards; the run's screenshot
 * and trace are downloaded into the artifacts directory first, as the local run writes them.
 */
async function runOnProbe(
  run: {
    script: string
    secrets: Record<string, string>
    timeoutSeconds: number
    location: string
    file: string
    artifactsDir: string
  },
  env: NodeJS.ProcessEnv,
  io: Io,
): Promise<number> {
  if (!/^[a-z0-9-]{2,32}$/.test(run.location)) {
    throw new UsageError('--location must be a location code such as fra', 'synthetic run')
  }
  const { base, apiKey } = await collectorApiAccess(env, 'synthetic run')
  const call = (method: string, path: string, body?: unknown) =>
    fetchService(COLLECTOR, new URL(path, base), {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout((run.timeoutSeconds + 60) * 1000),
    })
  const created = await call('POST', '/api/synthetics', {
    name: `guard synthetic run ${run.file}`.slice(0, 200),
    type: 'browser',
    script: run.script,
    ...(Object.keys(run.secrets).length > 0 ? { secrets: run.secrets } : {}),
    // The longest interval passes every plan's minimum; the check is disabled and never scheduled.
    checkInterval: 86_400,
    timeout: Math.min(run.timeoutSeconds, 300),
    locations: [run.location],
    enabled: false,
  })
  const check = (await created.json()) as { data?: { id: string }; message?: string }
  if (!created.ok || !check.data) {
    io.stderr(`guard synthetic run: ${check.message ?? `the collector answered ${created.status}`}\n`)
    return EXIT.usage
  }
  try {
    const ran = await call('POST', `/api/synthetics/${check.data.id}/run?location=${run.location}`)
    const answer = (await ran.json()) as {
      data?: { id: string; status: string; browser?: { artifacts: Record<string, string> } | null }
      message?: string
    }
    if (!ran.ok || !answer.data) {
      io.stderr(`guard synthetic run: ${answer.message ?? `the collector answered ${ran.status}`}\n`)
      return ran.status === 503 ? EXIT.unavailable : EXIT.usage
    }
    for (const [kind, path] of Object.entries(answer.data.browser?.artifacts ?? {})) {
      const file = join(run.artifactsDir, `${answer.data.id}-${path.split('/').at(-1)}`)
      const artifact = await call('GET', path)
      if (!artifact.ok) continue
      await mkdir(run.artifactsDir, { recursive: true })
      await writeFile(file, Buffer.from(await artifact.arrayBuffer()))
      answer.data.browser!.artifacts[kind] = file
    }
    io.stdout(`${JSON.stringify(answer.data, null, 2)}\n`)
    return answer.data.status === 'up' ? EXIT.ok : EXIT.failed
  } finally {
    await call('DELETE', `/api/synthetics/${check.data.id}`).catch(() => undefined)
  }
}
