import type { BrowserRun } from '@guard/shared'
import { FairLimiter } from '../limiter.ts'
import { type BrowserRunnerOptions, type BrowserScriptInput, runBrowserScript } from './run-browser-script.ts'

export interface BrowserChecksOptions extends BrowserRunnerOptions {
  /** GUARD_PROBE_BROWSER_CONCURRENCY: runs at once, each with its own browser. */
  concurrency: number
  /** How many organizations have browser monitors scheduled here, busy or not. */
  tenants: () => number
  /** The runner; tests give a stand-in to watch the slots without a browser. */
  run?: (input: BrowserScriptInput, options: BrowserRunnerOptions) => Promise<BrowserRun>
}

/**
 * The probe's browser slots: at most `concurrency` scripts run at once, and one organization holds
 * at most its share of them (FairLimiter, as for HTTP checks), freed slots going round robin to
 * the organizations waiting.
 */
export class BrowserChecks {
  private readonly limiter: FairLimiter

  constructor(private readonly options: BrowserChecksOptions) {
    this.limiter = new FairLimiter(options.concurrency, options.tenants)
  }

  run(organizationId: string, input: BrowserScriptInput): Promise<BrowserRun> {
    const run = this.options.run ?? runBrowserScript
    return this.limiter.run(organizationId, () => run(input, this.options))
  }

  get inFlight(): number {
    return this.limiter.inFlight
  }

  inFlightOf(organizationId: string): number {
    return this.limiter.inFlightOf(organizationId)
  }
}
