import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort, serviceAvailable } from '@guard/shared/testing'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { type GuardProcess, seedDataDir, spawnGuard } from './spawn-guard.ts'

/** Debian's chromium, or undefined (the browser tests skip loudly without it). */
export const CHROMIUM = serviceAvailable('chromium', ['/usr/bin/chromium', '/usr/bin/chromium-browser'])

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Where browser tests leave screenshots for a person to look at: test/artifacts/. */
const ARTIFACTS = new URL('../artifacts/', import.meta.url)

/** A full-page screenshot at test/artifacts/<name>.png (`name` may hold a folder, as `console/overview`). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const path = new URL(`${name}.png`, ARTIFACTS).pathname
  await mkdir(dirname(path), { recursive: true })
  await page.screenshot({ path, fullPage: true })
}

export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is not installed')
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}

export interface ConsoleGuard {
  guard: GuardProcess
  /** The console and the API: `http://127.0.0.1:<port>`. */
  collectorUrl: string
  identityUrl: string
  admin: { email: string; password: string }
  /** The bootstrap API key `guard start` printed (default organization, every permission). */
  apiKey: string
  dataDir: string
  /** One API call with `apiKey`, a JSON `body` if any; resolves to the answer's `data`. */
  rest<T>(method: string, path: string, body?: unknown): Promise<T>
  stop(): Promise<void>
}

/**
 * `guard start` on free ports in a temporary data directory, with short intervals allowed and
 * loopback targets permitted (fixtures run on 127.0.0.1). `env` adds or overrides variables.
 */
export async function startGuardForConsole(env: Record<string, string> = {}): Promise<ConsoleGuard> {
  const dataDir = await mkdtemp(join(tmpdir(), 'guard-console-'))
  await seedDataDir(dataDir)
  const identityPort = await freePort()
  const collectorPort = await freePort()
  const guard = spawnGuard(['start'], {
    GUARD_DATA_DIR: dataDir,
    GUARD_IDENTITY_PORT: String(identityPort),
    GUARD_COLLECTOR_PORT: String(collectorPort),
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    ...env,
  })
  try {
    await guard.waitFor(/api key: guard_\S+/, 120_000)
  } catch (error) {
    // The caller never gets a handle to stop: a Guard left running here slows every later file.
    await guard.stop('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  const output = guard.output()
  const admin = output.match(/admin: (\S+) \/ (\S+)/)
  const apiKey = output.match(/api key: (guard_\S+)/)
  if (!admin || !apiKey) throw new Error(`guard start printed no credentials:\n${output}`)
  const collectorUrl = `http://127.0.0.1:${collectorPort}`
  return {
    guard,
    collectorUrl,
    identityUrl: `http://127.0.0.1:${identityPort}`,
    admin: { email: admin[1]!, password: admin[2]! },
    apiKey: apiKey[1]!,
    dataDir,
    async rest<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${collectorUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey[1]}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      return ((await response.json()) as { data: T }).data
    },
    async stop() {
      await guard.stop('SIGTERM', 10_000)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A browser context signed in to the console the way a person does it: open the console, press
 * "Sign in", fill identity's sign-in page, land back on the console's overview. Returns the page
 * on the overview; the context holds the session cookie.
 */
export async function signInToConsole(
  browser: Browser,
  guard: Pick<ConsoleGuard, 'collectorUrl' | 'admin'>,
  options: { path?: string; colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 900 },
  })
  const page = await context.newPage()
  await page.goto(`${guard.collectorUrl}${options.path ?? '/'}`)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByLabel('Email').fill(guard.admin.email)
  await page.getByLabel('Password').fill(guard.admin.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.href.startsWith(guard.collectorUrl))
  await page.getByRole('navigation', { name: 'Main' }).waitFor()
  return { context, page }
}

/** Runs axe-core on the page and returns its serious and critical violations (none is the goal). */
export async function seriousViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  const { AxeBuilder } = await import('@axe-core/playwright')
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }))
}
