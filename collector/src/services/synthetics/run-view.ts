import { type BrowserRunDetails, browserRunDetails, flowStepRun } from '@guard/shared'
import { z } from 'zod'
import type { SyntheticRunView } from './schemas.ts'

/** Where the API serves one artifact of a run. */
export const artifactPath = (monitorId: string, runId: string, name: string) =>
  `/api/synthetics/${encodeURIComponent(monitorId)}/runs/${encodeURIComponent(runId)}/artifacts/${name}`

/** A stored or just-returned run as the API shows it, artifacts as the URLs that serve them. */
export function runViewOf(
  monitorId: string,
  run: Omit<SyntheticRunView, 'steps' | 'browser'> & { steps: unknown; browser: BrowserRunDetails | null | unknown },
): SyntheticRunView {
  const browser = run.browser === null || run.browser === undefined ? null : browserRunDetails.parse(run.browser)
  const urlOf = (name: string) =>
    browser?.artifacts.includes(name as never) ? artifactPath(monitorId, run.id, name) : undefined
  const screenshot = urlOf('screenshot.png')
  const trace = urlOf('trace.zip')
  return {
    id: run.id,
    location: run.location,
    startedAt: run.startedAt,
    status: run.status,
    responseTimeMs: run.responseTimeMs,
    error: run.error,
    errorKind: run.errorKind,
    steps: z.array(flowStepRun).parse(run.steps ?? []),
    browser: browser
      ? {
          testName: browser.testName,
          timedOut: browser.timedOut,
          failedStep: browser.failedStep ?? null,
          steps: browser.steps,
          navigations: browser.navigations,
          consoleErrors: browser.consoleErrors,
          failedRequests: browser.failedRequests,
          artifacts: { ...(screenshot ? { screenshot } : {}), ...(trace ? { trace } : {}) },
        }
      : null,
  }
}
