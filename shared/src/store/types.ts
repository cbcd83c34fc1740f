import type { ClickHouseClient } from '@clickhouse/client'

/** A relational store: PostgreSQL through `pg`, or PGlite under the data directory. Same SQL for both. */
export interface SqlResult<Row> {
  rows: Row[]
  affectedRows: number
}

export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<Row>>
  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>
}

export interface RelationalStore extends Sql {
  readonly engine: 'postgres' | 'pglite'
  /**
   * Whether this process is the store's only user (an embedded database under the data directory
   * is opened by one process): then a count no other replica needs may be kept in memory.
   */
  readonly singleProcess: boolean
  /**
   * PGlite only: its data directory as a tarball, gzipped unless asked for 'none' (faster to make
   * and load), taken between two queries (so a consistent cut, as after a crash);
   * `openPglite({ loadDataDir })` opens it again.
   */
  dumpDataDir?(compression?: 'gzip' | 'none'): Promise<Blob>
  /** PGlite only: the size of its WebAssembly memory, which its buffers and caches live in. */
  memoryBytes?(): number
  close(): Promise<void>
}

/**
 * A time-series store: a ClickHouse server, or chDB under the data directory, behind the same
 * `@clickhouse/client` API. `database` is the client's default database in both engines, so
 * queries may leave table names unqualified.
 */
export interface TimeSeriesStore {
  readonly engine: 'clickhouse' | 'chdb'
  readonly client: ClickHouseClient
  readonly database: string
  close(): Promise<void>
}
