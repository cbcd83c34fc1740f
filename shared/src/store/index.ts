export {
  type DataDirLock,
  DataDirLockedError,
  dataDirOwner,
  LOCK_FILE,
  type LockOwner,
  lockDataDir,
} from './data-dir-lock.ts'
export { isDataError } from './data-error.ts'
export { migrate } from './migrate.ts'
export { openMigratedTestRelationalStore, openTestRelationalStore } from './pglite-template.ts'
export { openPglite, openRelationalStore } from './relational.ts'
export { openTestTimeSeriesStore, openTimeSeriesStore, type TimeSeriesOptions } from './timeseries.ts'
export { migrateTimeSeries } from './timeseries-migrate.ts'
export type { RelationalStore, Sql, SqlResult, TimeSeriesStore } from './types.ts'
export { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from './unavailable.ts'
