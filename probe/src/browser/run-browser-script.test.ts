import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserRun, browserRunV1 } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startShopApp } from '../testing/shop-app.ts'
import { BrowserChecks } from './browser-checks.ts'
import { type BrowserRunnerOptions, type BrowserScriptInput, runBrowserScript } from './run-browser-script.ts'

const PASSWORD = 'correct-horse-battery'
// Generous deadlines: a run includes a browser launch, slow on a busy two-core machine.
const RUN_TIMEOUT_MS = 60_000
const TEST_TIMEOUT_MS = 150_000

let shop: Awaited<ReturnType<typeof startShopApp>>
let artifactsDir: string
let options: BrowserRunnerOptions

beforeAll(async () => {
  shop = await startShopApp(PASSWORD)
  artifactsDir = await mkdtemp(join(tmpdir(), 'guard-browser-artifacts-'))
  options = { browserPath: '/usr/bin/chromium', artifactsDir, allowPrivate: true }
})
afterAll(async () => {
  await shop.close()
  await rm(artifactsDir, { recursive: true, force: true })
})

const checkout = () => `
import { test, expect } from '@playwright/test'

test('checkout', async ({ page }) => {
  await test.step('log in', async () => {
    await page.goto('${shop.url}/login')
    await page.getByLabel('User').fill('ada')
    await page.getByLabel('Password').fill(secrets.PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/checkout/)
  })
  await test.step('check total', async () => {
    console.log('logged in with', secrets.PASSWORD)
    await page.evaluate((secret) => console.error('session for ' + secret), secrets.PASSWORD)
    await expect(page.locator('#total')).toHaveText('42.00 EUR')
    await expect(page.getByText('Something went wrong')).not.toBeVisible()
  })
})`

const run = (script: string, overrides: Partial<BrowserScriptInput> = {}, runner = options) =>
  runBrowserScript(
    { script, secrets: { PASSWORD }, timeoutMs: RUN_TIMEOUT_MS, expectTimeoutMs: 1000, ...overrides },
    runner,
  )

describe('runBrowserScript', () => {
  it(
    'passes a script that logs in with a secret and checks the total, recording steps and Web Vitals but never the secret',
    async () => {
      const logs: string[] = []
      const result = await run(checkout(), {}, { ...options, onLog: (text) => logs.push(text) })

      expect(result.error).toBeUndefined()
      expect(result).toMatchObject({ status: 'passed', testName: 'checkout', timedOut: false, artifacts: {} })
      expect(result.steps.map((step) => [step.name, step.status])).toEqual([
        ['log in', 'passed'],
        ['check total', 'passed'],
      ])
      expect(result.navigations.map((navigation) => new URL(navigation.url).pathname)).toEqual(['/login', '/checkout'])
      expect(result.navigations[0]?.ttfbMs).toBeGreaterThanOrEqual(0)
      expect(result.consoleErrors).toEqual(['session for [secret PASSWORD]'])
      expect(logs).toEqual(['logged in with [secret PASSWORD]'])
      expect(JSON.stringify(result)).not.toContain(PASSWORD)
      expect(browserRunV1.parse(result)).toEqual(result)
    },
    TEST_TIMEOUT_MS,
  )

  it(
    'fails a broken checkout at its step, with the screenshot and trace stored',
    async () => {
      shop.breakCheckout()
      let result: BrowserRun
      try {
        result = await run(checkout())
      } finally {
        shop.breakCheckout(false)
      }

      expect(result).toMatchObject({ status: 'failed', failedStep: 'check total', timedOut: false })
      expect(result.error).toContain("expect(locator('#total')).toHaveText() failed")
      expect(result.steps.at(-1)).toMatchObject({ name: 'check total', status: 'failed' })
      const screenshot = await readFile(join(artifactsDir, result.artifacts.screenshot!))
      expect(screenshot.subarray(1, 4).toString()).toBe('PNG')
      const trace = await readFile(join(artifactsDir, result.artifacts.trace!))
      expect(trace.subarray(0, 2).toString()).toBe('PK')
    },
    TEST_TIMEOUT_MS,
  )

  it(
    'stops a script that reaches for require, process, import() or string evaluation',
    async () => {
      const attempts = {
        require: `require('node:fs').readFileSync('/etc/passwd', 'utf8')`,
        process: 'process.env',
        import: `import('node:fs')`,
        escape: `test.constructor.constructor('return process')()`,
      }
      const results = await Promise.all(
        Object.values(attempts).map((attempt) =>
          run(`test('steal', async ({ page }) => { const stolen = await ${attempt}; console.log(stolen) })`),
        ),
      )
      const errors = Object.fromEntries(Object.keys(attempts).map((name, n) => [name, results[n]!.error]))
      expect(results.map((result) => result.status)).toEqual(['failed', 'failed', 'failed', 'failed'])
      expect(errors).toEqual({
        require: expect.stringContaining('require is not defined'),
        process: expect.stringContaining('process is not defined'),
        import: expect.stringMatching(/dynamic import/i),
        escape: expect.stringMatching(/code generation from strings disallowed/i),
      })
    },
    TEST_TIMEOUT_MS,
  )

  it(
    'refuses a private address when private targets are not allowed',
    async () => {
      const result = await run(
        `test('intranet', async ({ page }) => { await page.goto('${shop.url}/login') })`,
        {},
        {
          ...options,
          allowPrivate: false,
        },
      )

      expect(result.status).toBe('failed')
      expect(result.error).toContain('ERR_BLOCKED_BY_CLIENT')
      expect(result.failedRequests).toEqual([
        expect.objectContaining({
          url: `${shop.url}/login`,
          blocked: true,
          reason: expect.stringContaining('loopback'),
        }),
      ])
    },
    TEST_TIMEOUT_MS,
  )

  it(
    'kills a runaway script at its deadline, and the next run works',
    async () => {
      const started = performance.now()
      const runaway = await run(
        `test('spin', async ({ page }) => {
        await page.goto('${shop.url}/login')
        await test.step('forever', async () => { for (;;) {} })
      })`,
        { timeoutMs: 20_000 },
      )
      const elapsed = performance.now() - started

      expect(runaway).toMatchObject({ status: 'failed', timedOut: true, failedStep: 'forever' })
      expect(runaway.error).toContain('timed out after 20000 ms in step "forever"')
      expect(elapsed).toBeLessThan(30_000)

      const hung = await run(`test('wait', async () => { await new Promise(() => {}) })`, { timeoutMs: 15_000 })
      expect(hung).toMatchObject({ status: 'failed', timedOut: true })

      expect((await run(checkout())).status).toBe('passed')
    },
    TEST_TIMEOUT_MS,
  )
})

describe('runBrowserScript without a browser', () => {
  it(
    'fails the run with the reason when the browser does not start',
    async () => {
      const result = await run(checkout(), {}, { ...options, browserPath: '/nonexistent/chromium' })
      expect(result).toMatchObject({ status: 'failed', timedOut: false })
      expect(result.error).toMatch(/^the browser did not start: /)
    },
    TEST_TIMEOUT_MS,
  )
})

describe('BrowserChecks', () => {
  it('shares the browser slots between two organizations: a freed slot goes to the one that waited', async () => {
    const order: string[] = []
    const checks = new BrowserChecks({
      ...options,
      concurrency: 2,
      tenants: () => 2,
      run: async (input) => {
        order.push(input.script)
        await new Promise((resolve) => setTimeout(resolve, 20))
        return browserRunV1.parse({
          v: 1,
          status: 'passed',
          testName: input.script,
          startedAt: new Date().toISOString(),
          durationMs: 20,
          timedOut: false,
          steps: [],
          navigations: [],
          consoleErrors: [],
          failedRequests: [],
          artifacts: {},
        })
      },
    })
    const input = (script: string) => ({ script, timeoutMs: 1000 })
    const runs = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) => checks.run('org-a', input(name))),
      checks.run('org-b', input('b1')),
      checks.run('org-b', input('b2')),
    ]
    await Promise.resolve()
    // Two slots, two organizations: org-a holds one while org-b waits, never both.
    expect(checks.inFlightOf('org-a')).toBe(1)
    expect(checks.inFlightOf('org-b')).toBe(1)
    await Promise.all(runs)
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4'])
  })

  it(
    'runs one real script per slot through the limiter',
    async () => {
      const checks = new BrowserChecks({ ...options, concurrency: 1, tenants: () => 2 })
      const [a, b] = await Promise.all([
        checks.run('org-a', { script: checkout(), secrets: { PASSWORD }, timeoutMs: RUN_TIMEOUT_MS }),
        checks.run('org-b', { script: checkout(), secrets: { PASSWORD }, timeoutMs: RUN_TIMEOUT_MS }),
      ])
      expect([a.status, b.status]).toEqual(['passed', 'passed'])
      // One slot: the second run started once the first had ended.
      expect(Date.parse(b.startedAt)).toBeGreaterThanOrEqual(Date.parse(a.startedAt) + a.durationMs - 5)
    },
    TEST_TIMEOUT_MS,
  )
})
