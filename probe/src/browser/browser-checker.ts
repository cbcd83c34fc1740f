import type { Checker } from '../checker.ts'

/**
 * The browser kind on a thread or probe without a browser: the probe's own browser path
 * (check-browser.ts) runs browser checks, and only on probes started with GUARD_PROBE_BROWSER.
 */
export const browserChecker: Checker<'browser'> = {
  kind: 'browser',
  check: async () => ({
    status: 'down',
    responseTimeMs: 0,
    error: 'this probe has no browser (GUARD_PROBE_BROWSER is unset): browser checks run on probes that have one',
    errorKind: 'script_failed',
  }),
}
