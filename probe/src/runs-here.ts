import { type MonitorConfig, monitorRunsAt } from '@guard/shared'

/**
 * Whether this probe schedules the monitor: its location runs it, and a browser check only on a
 * probe with a browser (GUARD_PROBE_BROWSER), so probes without one are never given any.
 */
export const runsHere = (monitor: MonitorConfig, location: string, browser: boolean): boolean =>
  monitorRunsAt(monitor, location) && (browser || monitor.target.kind !== 'browser')
