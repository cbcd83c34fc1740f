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
  close(): Promise<void>
}
