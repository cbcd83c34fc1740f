import { z } from 'zod'

const millis = z.number().nonnegative()

/** One `test.step` of a browser script, in the order it ran; a step nested in another counts on its own. */
export const browserStepV1 = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed']),
  durationMs: millis,
})
export type BrowserStep = z.infer<typeof browserStepV1>

/**
 * Web Vitals of one document the page loaded, measured in the page with PerformanceObserver.
 * A metric the browser never reported (no paint before the next navigation) stays absent.
 */
export const browserNavigationV1 = z.object({
  url: z.string(),
  /** Time to first byte: the navigation's responseStart. */
  ttfbMs: millis.optional(),
  /** Largest contentful paint, the last candidate seen. */
  lcpMs: millis.optional(),
  /** Cumulative layout shift, shifts without recent input. */
  cls: z.number().nonnegative(),
  /** Total blocking time: the sum of each long task's time past 50 ms. */
  tbtMs: millis,
})
export type BrowserNavigation = z.infer<typeof browserNavigationV1>

export const browserFailedRequestV1 = z.object({
  url: z.string(),
  method: z.string(),
  /** The browser's error text, or why the SSRF guard refused the address. */
  reason: z.string(),
  /** The request was refused by the probe, not failed by the network. */
  blocked: z.boolean(),
})

/** Bounds that keep one run's record small whatever the script or the page does. */
export const BROWSER_RUN_LIMITS = { consoleErrors: 50, failedRequests: 50, navigations: 50, steps: 100, text: 2000 }

/**
 * What one run of a browser script records. Secrets given to the script never appear in it:
 * their values are replaced by `[secret NAME]` in errors and console text. Artifacts are file
 * names inside the artifacts directory the runner was given.
 */
export const browserRunV1 = z.object({
  v: z.literal(1),
  status: z.enum(['passed', 'failed']),
  /** The name given to `test(...)`; empty when the script never declared one. */
  testName: z.string(),
  startedAt: z.iso.datetime(),
  durationMs: millis,
  /** The run hit its deadline and was killed (child process and browser). */
  timedOut: z.boolean(),
  /** The innermost step running when the script failed; absent when it failed outside any step. */
  failedStep: z.string().optional(),
  error: z.string().optional(),
  steps: z.array(browserStepV1).max(BROWSER_RUN_LIMITS.steps),
  navigations: z.array(browserNavigationV1).max(BROWSER_RUN_LIMITS.navigations),
  consoleErrors: z.array(z.string()).max(BROWSER_RUN_LIMITS.consoleErrors),
  failedRequests: z.array(browserFailedRequestV1).max(BROWSER_RUN_LIMITS.failedRequests),
  artifacts: z.object({
    /** PNG of the page when the script failed. */
    screenshot: z.string().optional(),
    /** Playwright trace (zip, `npx playwright show-trace FILE`) when the script failed. */
    trace: z.string().optional(),
  }),
})
export type BrowserRun = z.infer<typeof browserRunV1>
