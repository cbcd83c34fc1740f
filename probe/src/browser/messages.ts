import type { BrowserNavigation, BrowserRun } from '@guard/shared/browser-run'

/** What the runner sends the script process once, right after it starts. */
export interface ScriptJob {
  script: string
  secrets: Record<string, string>
  allowPrivate: boolean
  /** Default timeout of one page action (click, fill, goto). */
  actionTimeoutMs: number
  /** Default timeout of one `expect` on a locator or page. */
  expectTimeoutMs: number
  /** Also take a screenshot when the script passes. */
  screenshotOnSuccess: boolean
}

/** The browser to drive, sent once the runner has launched it. */
export interface BrowserReady {
  wsEndpoint: string
}

export type ParentMessage = { type: 'job'; job: ScriptJob } | ({ type: 'browser' } & BrowserReady)

/**
 * What the script process reports as it goes, so a run killed at its deadline still says which
 * step was running and what the page did until then. Every text is already redacted.
 */
export type ChildMessage =
  | { type: 'step-start'; name: string }
  | { type: 'step-end'; name: string; status: 'passed' | 'failed'; durationMs: number }
  | { type: 'navigation'; id: string; navigation: BrowserNavigation }
  | { type: 'console-error'; text: string }
  | { type: 'failed-request'; request: BrowserRun['failedRequests'][number] }
  | { type: 'log'; text: string }
  | {
      type: 'done'
      status: 'passed' | 'failed'
      testName: string
      error?: string
      failedStep?: string
      /** File names in the process's working directory. */
      screenshot?: string
      trace?: string
    }
