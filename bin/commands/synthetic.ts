import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { envTypes } from '@guard/shared'
import { answerHelp, type Io, parseArgs, pickAction, processIo, UsageError } from '../cli-kit.ts'

export const syntheticUsage = `Usage: guard synthetic run FILE [--timeout SECONDS] [--secret NAME[=VALUE]]... [--artifacts DIR]

Runs a browser script on this machine through the probe's runner (own browser, script process
under Node's permission model, SSRF guard) and prints the run as JSON: steps, Web Vitals per
navigation, console errors, failed requests, and on failure the screenshot and trace written
to --artifacts (default: a directory under the system's temporary directory). FILE holds
\`test('name', async ({ page }) => { … })\`; see docs for the API.
--secret NAME gives the script secrets.NAME from the environment variable NAME (or NAME=VALUE);
secrets are redacted from the output. --timeout: the whole run's deadline (default 60).
Local only: running from a probe's location (--location) needs the collector's synthetic
monitors and is not available yet.
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
  if (values.location !== undefined) {
    throw new UsageError('--location is not available yet: scripts run on this machine only', 'synthetic run')
  }
  const [file, ...extra] = positionals
  if (file === undefined || extra.length > 0) throw new UsageError('give exactly one script FILE', 'synthetic run')
  const timeoutSeconds = Number(values.timeout ?? '60')
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 600) {
    throw new UsageError('--timeout must be a whole number of seconds from 1 to 600', 'synthetic run')
  }
  const script = await readFile(file, 'utf8').catch(() => {
    throw new UsageError(`cannot read ${file}`, 'synthetic run')
  })
  const { runBrowserScript } = await import('@guard/probe/browser')
  const result = await runBrowserScript(
    { script, secrets: parseSecrets(values.secret ?? [], env), timeoutMs: timeoutSeconds * 1000 },
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
