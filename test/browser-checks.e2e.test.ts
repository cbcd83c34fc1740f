import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Stoppable } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runSyntheticCommand } from '../bin/commands/synthetic.ts'
import { buildCollectorApp } from '../collector/src/app.ts'
import { answerArtifactUploads } from '../collector/src/ingest/answer-artifact-uploads.ts'
import { consumeHeartbeats } from '../collector/src/ingest/consume-heartbeats.ts'
import { consumeResults } from '../collector/src/ingest/consume-results.ts'
import { createIngestMetrics } from '../collector/src/ingest/metrics.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../collector/src/test-support.ts'
import { type RunningProbe, startProbe } from '../probe/src/server.ts'
import { testProbeEnv } from '../probe/src/testing/probe-env.ts'
import { startShopApp } from '../probe/src/testing/shop-app.ts'

const PASSWORD = 'correct-horse-battery'
// A run launches Chromium: slow on a busy two-core machine, so deadlines are generous.
const RUN_TIMEOUT_SECONDS = 60
const TEST_TIMEOUT_MS = 180_000

/**
 * Browser checks through the whole path: created with the synthetics API, scheduled on the probe
 * of `fra` (which has Debian's Chromium), never on the probe of `ams` (which has none), run now,
 * their failing step, screenshot and trace stored by the collector and served to their
 * organization only.
 */
describe('browser checks end to end', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let shop: Awaited<ReturnType<typeof startShopApp>>
  let dataDir: string
  let browserProbe: RunningProbe
  let plainProbe: RunningProbe
  const stoppables: Stoppable[] = []
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>, key?: string) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key ?? harness.apiKey}` },
      ...(payload ? { payload } : {}),
    })
  const journey = () => `
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
    await expect(page.locator('#total')).toHaveText('42.00 EUR', { timeout: 1000 })
  })
})`
  const browserCheck = (overrides: Record<string, unknown> = {}) => ({
    name: 'Checkout',
    type: 'browser',
    script: journey(),
    secrets: { PASSWORD },
    checkInterval: 3600,
    timeout: RUN_TIMEOUT_SECONDS,
    locations: ['fra'],
    ...overrides,
  })

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guard-browser-e2e-'))
    harness = await collectorForTest({
      GUARD_LOCATIONS: 'fra,ams',
      GUARD_DATA_DIR: dataDir,
      GUARD_MANUAL_CHECK_TIMEOUT_SECONDS: '5',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { mallory: userCaller('mallory', ['org-mallory']) }),
    })
    const ingest = await consumeResults(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }, createIngestMetrics())
    stoppables.push(
      { stop: () => ingest.stop() },
      await consumeHeartbeats(harness.ctx),
      await answerArtifactUploads(harness.ctx),
    )
    shop = await startShopApp(PASSWORD)
    const heartbeat = { GUARD_PROBE_HEARTBEAT_SECONDS: '1' }
    browserProbe = await startProbe({
      env: await testProbeEnv({
        ...heartbeat,
        GUARD_PROBE_LOCATION: 'fra',
        GUARD_PROBE_BROWSER: 'chromium',
        GUARD_PROBE_BROWSER_PATH: '/usr/bin/chromium',
        GUARD_PROBE_BROWSER_CONCURRENCY: '1',
      }),
      log: harness.ctx.log,
      bus: harness.ctx.bus,
    })
    plainProbe = await startProbe({
      env: await testProbeEnv({ ...heartbeat, GUARD_PROBE_LOCATION: 'ams' }),
      log: harness.ctx.log,
      bus: harness.ctx.bus,
    })
  }, 180_000)

  afterAll(async () => {
    await browserProbe?.close()
    await plainProbe?.close()
    await Promise.all(stoppables.map((stoppable) => stoppable.stop()))
    await app?.close()
    await shop?.close()
    await harness?.close()
    await rm(dataDir, { recursive: true, force: true })
  }, 60_000)

  it(
    'runs a browser check created through the API on the probe with a browser, and it passes',
    async () => {
      const created = await call('POST', '/api/synthetics', browserCheck())
      expect(created.statusCode, created.body).toBe(201)
      const check = created.json().data
      expect(check).toMatchObject({ type: 'browser', steps: [], secretsSet: true, screenshotOnSuccess: false })
      expect(created.body).not.toContain(PASSWORD)
      // New monitors run at once on the probes that schedule them; the result comes through ingest.
      await expect
        .poll(async () => (await call('GET', `/api/synthetics/${check.id}/runs`)).json().data.length, {
          timeout: TEST_TIMEOUT_MS - 30_000,
          interval: 500,
        })
        .toBe(1)
      const [stored] = (await call('GET', `/api/synthetics/${check.id}/runs`)).json().data
      expect(stored, JSON.stringify(stored)).toMatchObject({ location: 'fra', status: 'up', error: null })
      expect(stored.browser.steps.map((step: { name: string }) => step.name)).toEqual(['log in', 'check total'])
      expect(stored.browser.steps[0].durationMs).toEqual(expect.any(Number))
      expect(stored.browser.navigations.length).toBeGreaterThan(0)
      expect(stored.browser.artifacts).toEqual({})
      expect(JSON.stringify(stored)).not.toContain(PASSWORD)
      await call('PUT', `/api/synthetics/${check.id}`, { enabled: false })
    },
    TEST_TIMEOUT_MS,
  )

  it(
    'fails a broken page at the right step with its screenshot and trace stored and served to its organization only',
    async () => {
      const check = (await call('POST', '/api/synthetics', browserCheck({ name: 'Broken', enabled: false }))).json()
        .data
      shop.breakCheckout()
      try {
        const ran = await call('POST', `/api/synthetics/${check.id}/run?location=fra`)
        expect(ran.statusCode, ran.body).toBe(200)
        const run = ran.json().data
        expect(run).toMatchObject({ status: 'down', errorKind: 'script_failed', location: 'fra' })
        expect(run.error).toMatch(/^step "check total": /)
        expect(run.browser.failedStep).toBe('check total')
        expect(run.browser.steps).toEqual([
          expect.objectContaining({ name: 'log in', status: 'passed' }),
          expect.objectContaining({ name: 'check total', status: 'failed' }),
        ])
        const base = `/api/synthetics/${check.id}/runs/${run.id}/artifacts`
        expect(run.browser.artifacts).toEqual({ screenshot: `${base}/screenshot.png`, trace: `${base}/trace.zip` })

        const screenshot = await call('GET', run.browser.artifacts.screenshot)
        expect(screenshot.statusCode).toBe(200)
        expect(screenshot.headers['content-type']).toBe('image/png')
        expect(screenshot.rawPayload.subarray(1, 4).toString()).toBe('PNG')
        const trace = await call('GET', run.browser.artifacts.trace)
        expect(trace.statusCode).toBe(200)
        expect(trace.rawPayload.subarray(0, 2).toString()).toBe('PK')
        const stored = (await call('GET', `/api/synthetics/${check.id}/runs`)).json().data[0]
        expect(stored).toMatchObject({ id: run.id, browser: { failedStep: 'check total' } })

        expect((await call('GET', run.browser.artifacts.screenshot, undefined, 'user:mallory')).statusCode).toBe(404)
        expect((await call('GET', `${base}/secrets.txt`)).statusCode).toBe(400)
        expect((await call('GET', `/api/synthetics/${check.id}/runs/..%2F..%2Fx/artifacts/trace.zip`)).statusCode).toBe(
          400,
        )
        expect((await call('GET', `/api/synthetics/${check.id}/runs/other-run/artifacts/trace.zip`)).statusCode).toBe(
          404,
        )
      } finally {
        shop.breakCheckout(false)
      }
    },
    TEST_TIMEOUT_MS,
  )

  it('never gives a browser check to a probe without a browser, and says where it cannot run', async () => {
    const created = await call('POST', '/api/synthetics', browserCheck({ name: 'Amsterdam', locations: ['ams'] }))
    expect(created.statusCode, created.body).toBe(201)
    const { id } = created.json().data
    await expect
      .poll(async () => (await call('GET', `/api/synthetics/${id}`)).json().data.browserUnavailableAt, {
        timeout: 10_000,
      })
      .toEqual(['ams'])
    const ran = await call('POST', `/api/synthetics/${id}/run?location=ams`)
    expect(ran.statusCode).toBe(503)
    expect(ran.json().message).toMatch(/No probe with a browser .* at location ams/)
    // A probe that scheduled it would have checked it at once (new monitors run right away).
    await new Promise((resolve) => setTimeout(resolve, 2000))
    expect(plainProbe.stats.checks).toBe(0)
  }, 30_000)

  it('holds browser checks to the plan minimum, naming the limit', async () => {
    const plans = harness.ctx.plans
    const plan = { id: 'free', name: 'Free', limits: { minIntervalSeconds: 60, minBrowserIntervalSeconds: 300 } }
    harness.ctx.plans = { ...plans, planOf: async (organizationId: string) => ({ organizationId, plan }) }
    try {
      const tooOften = await call('POST', '/api/synthetics', browserCheck({ checkInterval: 120 }))
      expect(tooOften.statusCode).toBe(403)
      expect(tooOften.json()).toMatchObject({ error: 'PLAN_LIMIT', limit: 'minBrowserIntervalSeconds', value: 300 })
      expect(tooOften.json().message).toMatch(/browser checks every 300 seconds or more; checkInterval 120/)
      const ok = await call('POST', '/api/synthetics', browserCheck({ checkInterval: 300, enabled: false }))
      expect(ok.statusCode, ok.body).toBe(201)
      const faster = await call('PUT', `/api/synthetics/${ok.json().data.id}`, { checkInterval: 60 })
      expect(faster.json()).toMatchObject({ error: 'PLAN_LIMIT', limit: 'minBrowserIntervalSeconds' })
      const steps = await call('PUT', `/api/synthetics/${ok.json().data.id}`, {
        steps: [{ name: 'a', method: 'GET', url: 'https://example.org/' }],
      })
      expect(steps.statusCode).toBe(400)
      expect(steps.json().message).toMatch(/steps/)
      // An api check keeps the plan's general minimum.
      const api = await call('POST', '/api/synthetics', {
        name: 'api',
        steps: [{ name: 'home', method: 'GET', url: 'https://example.org/' }],
        checkInterval: 120,
        enabled: false,
      })
      expect(api.statusCode, api.body).toBe(201)
    } finally {
      harness.ctx.plans = plans
    }
  })

  it('refuses a browser check without a script, with steps, or using a secret not given', async () => {
    const noScript = await call('POST', '/api/synthetics', { name: 'x', type: 'browser' })
    expect(noScript.statusCode).toBe(400)
    expect(noScript.json().message).toMatch(/script/)
    const withSteps = await call('POST', '/api/synthetics', {
      ...browserCheck(),
      steps: [{ name: 'a', method: 'GET', url: 'https://example.org/' }],
    })
    expect(withSteps.json().message).toMatch(/steps/)
    const missing = await call('POST', '/api/synthetics', browserCheck({ secrets: {} }))
    expect(missing.statusCode).toBe(400)
    expect(missing.json().message).toMatch(/secrets\.PASSWORD/)
    const huge = await call('POST', '/api/synthetics', browserCheck({ script: 'x'.repeat(70_000) }))
    expect(huge.statusCode).toBe(400)
  })

  it(
    'runs a script file on a probe of a location with `guard synthetic run --location`, and says when none has a browser',
    async () => {
      const listening = await buildCollectorApp(harness.ctx)
      try {
        await listening.listen({ host: '127.0.0.1', port: 0 })
        const { port } = listening.server.address() as { port: number }
        const file = join(dataDir, 'journey.spec.ts')
        await writeFile(file, journey())
        const env = {
          GUARD_COLLECTOR_URL: `http://127.0.0.1:${port}`,
          GUARD_API_KEY: harness.apiKey,
          GUARD_DATA_DIR: dataDir,
          PASSWORD,
        }
        const printed: string[] = []
        const io = { stdout: (text: string) => printed.push(text), stderr: (text: string) => printed.push(text) }
        const args = ['run', file, '--secret', 'PASSWORD', '--timeout', String(RUN_TIMEOUT_SECONDS)]
        expect(await runSyntheticCommand([...args, '--location', 'fra'], env, io), printed.join('')).toBe(0)
        expect(JSON.parse(printed.join(''))).toMatchObject({ status: 'up', location: 'fra' })
        printed.length = 0
        expect(await runSyntheticCommand([...args, '--location', 'ams'], env, io)).toBe(69)
        expect(printed.join('')).toMatch(/No probe with a browser .* at location ams/)
        // The checks that held the script are gone.
        const names = (await call('GET', '/api/synthetics')).json().data.map((check: { name: string }) => check.name)
        expect(names.filter((name: string) => name.startsWith('guard synthetic run'))).toEqual([])
      } finally {
        await listening.close()
      }
    },
    TEST_TIMEOUT_MS,
  )
})
