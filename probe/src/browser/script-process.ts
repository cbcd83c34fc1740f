// The script process: one browser script, one run, then it exits. Started by run-browser-script.ts
// with an empty environment in a fresh directory; it talks to the runner over IPC only.
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { guardEgress } from './egress.ts'
import type { ChildMessage, ParentMessage, ScriptJob } from './messages.ts'
import { redactor } from './redact.ts'
import { type LoadedScript, loadScript } from './script-api.ts'
import { watchWebVitals } from './web-vitals.ts'

const send = (message: ChildMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()))
const messageOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error)

let resolveEndpoint: (endpoint: string) => void = () => {}
const endpoint = new Promise<string>((resolve) => (resolveEndpoint = resolve))

process.on('message', (message: ParentMessage) => {
  if (message.type === 'browser') resolveEndpoint(message.wsEndpoint)
  else void run(message.job).then(() => process.exit(0))
})
// A promise the script leaves rejected must not end the run before its verdict is sent.
process.on('unhandledRejection', () => {})

async function run(job: ScriptJob): Promise<void> {
  const redact = redactor(job.secrets)
  let script: LoadedScript
  try {
    script = loadScript(job.script, {
      secrets: job.secrets,
      expectTimeoutMs: job.expectTimeoutMs,
      hooks: {
        onStepStart: (name) => void send({ type: 'step-start', name: redact(name) }),
        onStepEnd: (name, status, durationMs) =>
          void send({ type: 'step-end', name: redact(name), status, durationMs }),
        onLog: (text) => void send({ type: 'log', text: redact(text) }),
      },
    })
  } catch (error) {
    await send({ type: 'done', status: 'failed', testName: '', error: redact(messageOf(error)) })
    return
  }
  const browser = await chromium.connect(await endpoint)
  let context: BrowserContext | undefined
  let page: Page | undefined
  try {
    context = await prepareContext(browser, job, redact)
    page = await context.newPage()
    await script.body({ page })
    await context.tracing.stop()
    const screenshot = job.screenshotOnSuccess
      ? await page
          .screenshot({ path: 'screenshot.png', timeout: 3000 })
          .then(() => 'screenshot.png')
          .catch(() => undefined)
      : undefined
    await send({ type: 'done', status: 'passed', testName: redact(script.name), screenshot })
  } catch (error) {
    const screenshot = await page
      ?.screenshot({ path: 'screenshot.png', timeout: 3000 })
      .then(() => 'screenshot.png')
      .catch(() => undefined)
    const trace = await context?.tracing
      .stop({ path: 'trace.zip' })
      .then(() => 'trace.zip')
      .catch(() => undefined)
    await send({
      type: 'done',
      status: 'failed',
      testName: redact(script.name),
      error: redact(messageOf(error)),
      failedStep: script.failedStep() === undefined ? undefined : redact(script.failedStep()!),
      screenshot,
      trace,
    })
  } finally {
    await browser.close().catch(() => {})
  }
}

/** A fresh context with the SSRF guard, Web Vitals, console and request watches, and tracing on. */
async function prepareContext(browser: Browser, job: ScriptJob, redact: (text: string) => string) {
  // Service workers fetch outside the context's routes: blocked, so every request is vetted.
  const context = await browser.newContext({ serviceWorkers: 'block' })
  context.setDefaultTimeout(job.actionTimeoutMs)
  await guardEgress(context, job.allowPrivate, (refusal) =>
    send({ type: 'failed-request', request: { ...refusal, url: redact(refusal.url), blocked: true } }),
  )
  await watchWebVitals(context, (id, navigation) =>
    send({ type: 'navigation', id, navigation: { ...navigation, url: redact(navigation.url) } }),
  )
  context.on('console', (message) => {
    if (message.type() === 'error') void send({ type: 'console-error', text: redact(message.text()) })
  })
  context.on('weberror', (error) => void send({ type: 'console-error', text: redact(messageOf(error.error())) }))
  context.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed'
    // Refusals were reported by the guard with their reason.
    if (reason.includes('ERR_BLOCKED_BY_CLIENT')) return
    void send({
      type: 'failed-request',
      request: { url: redact(request.url()), method: request.method(), reason: redact(reason), blocked: false },
    })
  })
  await context.tracing.start({ screenshots: true, snapshots: true })
  return context
}
