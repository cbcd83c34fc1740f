import { type ChildProcess, fork } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BROWSER_RUN_LIMITS, type BrowserNavigation, type BrowserRun, type BrowserStep, newId } from '@guard/shared'
import { type BrowserServer, chromium } from 'playwright-core'
import { z } from 'zod'
import type { ChildMessage, ParentMessage } from './messages.ts'
import { redactor } from './redact.ts'
import { playwrightModules, scriptProcessSource } from './script-process-bundle.ts'

export const browserScriptInput = z.object({
  /** The script's body: `test('name', async ({ page }) => { … })`. */
  script: z
    .string()
    .min(1)
    .max(256 * 1024),
  /** Values the script reads as `secrets.NAME`; never written to the run's record. */
  secrets: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
  /** The whole run's deadline, browser launch included; past it, the script process and browser are killed. */
  timeoutMs: z.number().int().min(1000).max(600_000),
  actionTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
  expectTimeoutMs: z.number().int().min(100).max(600_000).default(5000),
  /** Keep a screenshot of a run that passes too (a failed run always gets one). */
  screenshotOnSuccess: z.boolean().default(false),
})
export type BrowserScriptInput = z.input<typeof browserScriptInput>

export interface BrowserRunnerOptions {
  /** GUARD_PROBE_BROWSER_PATH. */
  browserPath: string
  /** Where screenshots and traces of failed runs are written; the run references them by file name. */
  artifactsDir: string
  /** GUARD_ALLOW_PRIVATE_TARGETS: the page may reach private and loopback addresses. */
  allowPrivate: boolean
  /** The script process's V8 heap cap (--max-old-space-size). */
  memoryMb?: number
  /** Whatever the script prints with `console.*`, redacted. */
  onLog?: (text: string) => void
}

/** Files playwright-core checks for as it loads (is-wsl, is-docker); they say nothing about the probe. */
const LOAD_PROBES = [
  '/proc/version',
  '/proc/sys/fs/binfmt_misc/WSLInterop',
  '/run/WSL',
  '/.dockerenv',
  '/run/.containerenv',
  '/proc/self/cgroup',
]

const NODE_MAJOR = Number(process.versions.node.split('.')[0])

/**
 * Node's permission model for the script process: it reads its own bundle and playwright-core,
 * writes only its working directory (screenshot, trace), and starts no process, thread or
 * addon. Strings never become code, so an escape from the vm by way of a host object's
 * `constructor.constructor` finds no Function to compile with.
 */
function isolationFlags(workDir: string, modules: string, memoryMb: number): string[] {
  // Node 20 and 22 take `dir/*` for a directory; later versions take the directory itself.
  const tree = (dir: string) => (NODE_MAJOR < 23 ? `${dir}/*` : dir)
  return [
    NODE_MAJOR < 22 ? '--experimental-permission' : '--permission',
    `--allow-fs-read=${tree(join(modules, 'playwright-core'))}`,
    `--allow-fs-read=${tree(workDir)}`,
    // playwright-core looks for WSL and containers as it loads.
    ...LOAD_PROBES.map((path) => `--allow-fs-read=${path}`),
    `--allow-fs-write=${tree(workDir)}`,
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${memoryMb}`,
  ]
}

/** Chromium as root cannot use its sandbox; anyone else keeps it. */
const runsAsRoot = () => process.getuid?.() === 0

function killGroup(pid: number | undefined) {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

/**
 * Runs one browser script: launches a browser of its own, starts the script process (its own
 * process group, an empty environment, a fresh temporary directory as working directory and a
 * heap cap), hands it the script and the browser, and gathers what it reports. At the deadline
 * the script process and the browser's whole process group are killed with SIGKILL, and the run
 * is recorded as failed at the step that was running. Nothing outlives the run.
 */
export async function runBrowserScript(input: BrowserScriptInput, options: BrowserRunnerOptions): Promise<BrowserRun> {
  const job = browserScriptInput.parse(input)
  const redact = redactor(job.secrets)
  const startedAt = new Date()
  const started = performance.now()
  const workDir = await mkdtemp(join(tmpdir(), 'guard-browser-'))
  const steps: BrowserStep[] = []
  const running: string[] = []
  const navigations = new Map<string, BrowserNavigation>()
  const consoleErrors: string[] = []
  const failedRequests: BrowserRun['failedRequests'] = []
  let done: Extract<ChildMessage, { type: 'done' }> | undefined
  let timedOut = false
  let stderr = ''
  let failure: string | undefined
  let server: BrowserServer | undefined
  let child: ChildProcess | undefined

  const deadline = setTimeout(() => {
    timedOut = true
    if (child?.pid !== undefined) killGroup(child.pid)
    killGroup(server?.process().pid)
  }, job.timeoutMs)

  try {
    const entry = join(workDir, 'script-process.cjs')
    await writeFile(entry, await scriptProcessSource())
    const modules = playwrightModules()
    child = fork(entry, [], {
      cwd: workDir,
      // TMPDIR: playwright-core's client keeps a trace's call stacks in a temporary directory.
      env: { NODE_PATH: modules, TMPDIR: workDir },
      execArgv: isolationFlags(workDir, modules, options.memoryMb ?? 256),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      detached: true,
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-BROWSER_RUN_LIMITS.text)
    })
    child.on('message', (message: ChildMessage) => {
      switch (message.type) {
        case 'step-start':
          running.push(message.name)
          break
        case 'step-end':
          running.pop()
          if (steps.length < BROWSER_RUN_LIMITS.steps) {
            steps.push({ name: message.name, status: message.status, durationMs: Math.round(message.durationMs) })
          }
          break
        case 'navigation':
          if (navigations.has(message.id) || navigations.size < BROWSER_RUN_LIMITS.navigations) {
            navigations.set(message.id, message.navigation)
          }
          break
        case 'console-error':
          if (consoleErrors.length < BROWSER_RUN_LIMITS.consoleErrors) consoleErrors.push(message.text)
          break
        case 'failed-request':
          if (failedRequests.length < BROWSER_RUN_LIMITS.failedRequests) failedRequests.push(message.request)
          break
        case 'log':
          options.onLog?.(message.text)
          break
        case 'done':
          done = message
          break
      }
    })
    // A process that cannot start emits 'error' and never 'exit'.
    const exited = new Promise<void>((resolve) => {
      child!.once('exit', () => resolve())
      child!.once('error', () => resolve())
    })
    const sendToChild = (message: ParentMessage) => child!.send(message)
    sendToChild({ type: 'job', job: { ...job, allowPrivate: options.allowPrivate } })
    // A script that fails as it loads (a syntax error, `require`) needs no browser: do not wait for it.
    const launching = launchBrowser(options.browserPath, job.timeoutMs).catch((error: Error) => {
      throw new Error(`the browser did not start: ${error.message.split('\n')[0]}`)
    })
    const first = await Promise.race([launching, exited])
    if (first) {
      server = first
      if (timedOut) killGroup(server.process().pid)
      else sendToChild({ type: 'browser', wsEndpoint: server.wsEndpoint() })
      await exited
    } else {
      void launching.then(
        (late) => late.close(),
        () => {},
      )
    }
  } catch (error) {
    failure = (error as Error).message.split('\n')[0]
  } finally {
    clearTimeout(deadline)
    killGroup(child?.pid)
    await server?.close().catch(() => killGroup(server?.process().pid))
  }

  const artifacts = done ? await keepArtifacts(workDir, options.artifactsDir, done) : {}
  await rm(workDir, { recursive: true, force: true })
  const error = timedOut
    ? `timed out after ${job.timeoutMs} ms${running.length > 0 ? ` in step "${running.at(-1)}"` : ''}; the script process and browser were killed`
    : done
      ? done.error
      : redact(
          failure ?? `the script process ended without a verdict: ${stderr.trim().split('\n').slice(-5).join('\n')}`,
        )
  return {
    v: 1,
    status: !timedOut && done?.status === 'passed' ? 'passed' : 'failed',
    testName: done?.testName ?? '',
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    timedOut,
    failedStep: timedOut ? running.at(-1) : done?.failedStep,
    error,
    steps,
    navigations: [...navigations.values()],
    consoleErrors,
    failedRequests,
    artifacts,
  }
}

function launchBrowser(executablePath: string, timeoutMs: number): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath,
    headless: true,
    chromiumSandbox: !runsAsRoot(),
    timeout: timeoutMs,
    // WebRTC would otherwise open UDP to any address the page names, past the request routes.
    args: ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp'],
    // The probe's variables (bus credentials, keys) are none of the browser's business.
    env: { HOME: tmpdir(), PATH: process.env.PATH ?? '/usr/bin:/bin' },
  })
}

/** Moves the failure's screenshot and trace into the artifacts directory under names of this run. */
async function keepArtifacts(
  workDir: string,
  artifactsDir: string,
  done: Extract<ChildMessage, { type: 'done' }>,
): Promise<BrowserRun['artifacts']> {
  const runId = newId()
  const artifacts: BrowserRun['artifacts'] = {}
  const keep = async (file: string | undefined, suffix: string) => {
    if (file === undefined || file.includes('/')) return undefined
    await mkdir(artifactsDir, { recursive: true })
    const name = `${runId}-${suffix}`
    return copyFile(join(workDir, file), join(artifactsDir, name)).then(
      () => name,
      () => undefined,
    )
  }
  const screenshot = await keep(done.screenshot, 'screenshot.png')
  const trace = await keep(done.trace, 'trace.zip')
  if (screenshot) artifacts.screenshot = screenshot
  if (trace) artifacts.trace = trace
  return artifacts
}
