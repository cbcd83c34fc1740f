import type { Bus } from '../bus/types.ts'
import type { RelationalStore, TimeSeriesStore } from '../store/types.ts'

export type DependencyState = 'up' | 'down'

export interface DependencyWatch {
  /** The state of each dependency as of the latest round (a health request never waits on a database). */
  states(): Record<string, DependencyState>
  /** Runs a round now and resolves with its outcome. */
  refresh(): Promise<Record<string, DependencyState>>
  stop(): void
}

export type DependencyCheck = () => Promise<unknown> | boolean

export interface WatchOptions {
  /** Pause between rounds. */
  intervalMs?: number
  /** A check slower than this counts as down: a hung database must not look healthy. */
  timeoutMs?: number
}

/** Checks for the dependencies Guard services share; each resolves when the dependency answers. */
export const dependencyChecks = {
  bus:
    (bus: Bus): DependencyCheck =>
    () =>
      bus.isConnected(),
  relational:
    (sql: RelationalStore): DependencyCheck =>
    () =>
      sql.query('SELECT 1'),
  timeseries:
    (store: TimeSeriesStore): DependencyCheck =>
    async () => {
      const result = await store.client.query({ query: 'SELECT 1', format: 'JSONEachRow' })
      await result.json()
    },
}

/**
 * Watches dependencies in the background, one round every `intervalMs`, so `/api/health` answers
 * from memory: at once, without a query per probe, and without details that would leak (only up
 * or down per dependency). The first round has run when this resolves.
 */
export async function watchDependencies(
  checks: Record<string, DependencyCheck>,
  options: WatchOptions = {},
): Promise<DependencyWatch> {
  const intervalMs = options.intervalMs ?? 2000
  const timeoutMs = options.timeoutMs ?? 2000
  let current: Record<string, DependencyState> = Object.fromEntries(Object.keys(checks).map((name) => [name, 'up']))
  let running: Promise<Record<string, DependencyState>> | undefined
  const probe = async (check: DependencyCheck): Promise<DependencyState> => {
    let timer: NodeJS.Timeout | undefined
    try {
      const outcome = await Promise.race([
        Promise.resolve().then(check),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), timeoutMs)
        }),
      ])
      return outcome === false ? 'down' : 'up'
    } catch {
      return 'down'
    } finally {
      clearTimeout(timer)
    }
  }
  const round = () => {
    running ??= (async () => {
      const names = Object.keys(checks)
      const states = await Promise.all(names.map((name) => probe(checks[name]!)))
      current = Object.fromEntries(names.map((name, index) => [name, states[index]!]))
      return current
    })().finally(() => {
      running = undefined
    })
    return running
  }
  await round()
  const timer = setInterval(() => void round(), intervalMs)
  timer.unref()
  return {
    states: () => current,
    refresh: round,
    stop: () => clearInterval(timer),
  }
}
