import type { Bus, KvBucket, Logger, RelationalStore, TimeSeriesStore } from '@guard/shared'
import type { CollectorEnv } from './env.ts'

/** What every collector service works with; built once at start and passed down. */
export interface CollectorContext {
  env: CollectorEnv
  log: Logger
  sql: RelationalStore
  timeseries: TimeSeriesStore
  bus: Bus
  monitors: KvBucket
}

/** Who is calling: every query is scoped to this organization. */
export interface Caller {
  organizationId: string
  apiKeyId: string
}
