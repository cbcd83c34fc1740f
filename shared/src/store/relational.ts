import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { PGlite, Results, Transaction } from '@electric-sql/pglite'
import pg from 'pg'
import { makeTreePrivate } from '../fs/private-tree.ts'
import { openHoldingDataDir } from './data-dir-lock.ts'
import { type PostgresTargets, parsePostgresTargets } from './postgres-hosts.ts'
import type { RelationalStore, Sql, SqlResult } from './types.ts'
import { isStoreUnavailable } from './unavailable.ts'

/**
 * Both engines follow PostgreSQL's own rule for the text of a query: without parameters it is
 * a script (simple protocol, several statements allowed, the last one's rows returned); with
 * parameters it is one statement whose values are bound, never spliced into the text.
 */
type Run = (text: string, params?: unknown[]) => Promise<SqlResult<Record<string, unknown>>>

function isScript(params: unknown[] | undefined): boolean {
  return params === undefined || params.length === 0
}

/** A nested `transaction` is a savepoint, so a caller can retry part of its work without losing the rest. */
function sqlOn(run: Run, depth: number): Sql {
  return {
    query: <Row>(text: string, params?: unknown[]) => run(text, params) as Promise<SqlResult<Row>>,
    async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      const savepoint = `guard_savepoint_${depth}`
      await run(`SAVEPOINT ${savepoint}`)
      try {
        const result = await work(sqlOn(run, depth + 1))
        await run(`RELEASE SAVEPOINT ${savepoint}`)
        return result
      } catch (error) {
        await run(`ROLLBACK TO SAVEPOINT ${savepoint}`)
        throw error
      }
    },
  }
}

// pg -------------------------------------------------------------------------------------------

const MIN_EXACT = BigInt(Number.MIN_SAFE_INTEGER)
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER)

/** PGlite's own int8 rule, applied to pg too so counts and ids have one JS type in both modes. */
function parseInt8(text: string): number | bigint {
  const value = BigInt(text)
  return value < MIN_EXACT || value > MAX_EXACT ? value : Number(value)
}

type Nested<T> = T | null | Nested<T>[]

function mapNested(value: Nested<string>): Nested<number | bigint> {
  if (value === null) return null
  if (Array.isArray(value)) return value.map(mapNested)
  return parseInt8(value)
}

/** PGlite reads a date as UTC midnight; pg's default would use the process' local time zone. */
function parseDate(text: string): Date | number {
  if (text === 'infinity') return Number.POSITIVE_INFINITY
  if (text === '-infinity') return Number.NEGATIVE_INFINITY
  return new Date(text)
}

const INT8 = 20
// Typed as number: pg-types' TypeId enum has no member for int8[].
const INT8_ARRAY: number = 1016
const DATE = 1082

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === 'binary') return pg.types.getTypeParser(oid, format)
    if (oid === INT8) return parseInt8
    if (oid === DATE) return parseDate
    if (oid === INT8_ARRAY) {
      const parseArray: (text: string) => Nested<string> = pg.types.getTypeParser(INT8_ARRAY, 'text')
      return (text: string) => mapNested(parseArray(text))
    }
    return pg.types.getTypeParser(oid, format)
  }) as typeof pg.types.getTypeParser,
}

/** rowCount counts returned rows for SELECT; affectedRows means written rows in both engines. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE'])

function fromPg(raw: pg.QueryResult | pg.QueryResult[]): SqlResult<Record<string, unknown>> {
  // pg answers a script of several statements with one result per statement.
  const last = Array.isArray(raw) ? raw.at(-1) : raw
  if (!last) return { rows: [], affectedRows: 0 }
  return { rows: last.rows, affectedRows: WRITES.has(last.command) ? (last.rowCount ?? 0) : 0 }
}

function pgRun(client: pg.Pool | pg.PoolClient, failed: (error: unknown) => void): Run {
  return async (text, params) => {
    try {
      return fromPg(await client.query(text, isScript(params) ? undefined : params))
    } catch (error) {
      failed(error)
      throw error
    }
  }
}

// A bounded wait for a connection: with the server away a request fails (503) instead of hanging.
const CONNECT_TIMEOUT_MS = 5000
// An idle connection is closed after this long, so a pool holds no connection to a server that went away quietly.
const IDLE_TIMEOUT_MS = 10_000

function newPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    types: pgTypes,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
  })
  // An idle connection that dies (server restart) is dropped by the pool; without a listener the
  // 'error' event would crash the process. The next query reconnects or fails where it is awaited.
  pool.on('error', () => undefined)
  return pool
}

/** Whether the server behind `connectionString` answers, and accepts writes when that is asked for. */
async function answersAs(connectionString: string, wants: PostgresTargets['wants']): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  client.on('error', () => undefined)
  try {
    await client.connect()
    if (wants === 'any') return
    const { rows } = await client.query<{ read_only: boolean }>(
      "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' AS read_only",
    )
    if (rows[0]?.read_only) {
      throw Object.assign(new Error('the server is read-only (a standby)'), { code: READ_ONLY_TRANSACTION })
    }
  } finally {
    await client.end().catch(() => undefined)
  }
}

const READ_ONLY_TRANSACTION = '25006'

/** The libpq rule pg lacks: the pool of the first host, in order, that answers as `targets` asks. */
async function electPool(targets: PostgresTargets): Promise<pg.Pool> {
  const failures: unknown[] = []
  for (const url of targets.urls) {
    try {
      await answersAs(url, targets.wants)
      return newPool(url)
    } catch (error) {
      failures.push(error)
    }
  }
  const hosts = targets.urls.map((url) => new URL(url).host).join(', ')
  // SQLSTATE 08001 (cannot establish a connection): the HTTP edges answer 503 with Retry-After.
  throw Object.assign(new AggregateError(failures, `no PostgreSQL server answers as ${targets.wants} (${hosts})`), {
    code: '08001',
  })
}

/**
 * The pool queries go to. With several hosts (or target_session_attrs=read-write) it is elected,
 * and elected again once a query meets a connection error or a read-only server (the primary went
 * away, a standby was promoted): no restart needed after a failover.
 */
interface PoolSource {
  pool(): Promise<pg.Pool>
  /** Called with every error a query on `pool` met; drops the pool when the error says its server is gone. */
  failed(pool: pg.Pool, error: unknown): void
  end(): Promise<void>
}

function fixedPool(url: string): PoolSource {
  const pool = newPool(url)
  return { pool: async () => pool, failed: () => undefined, end: () => pool.end() }
}

function electedPool(targets: PostgresTargets): PoolSource {
  let current: Promise<pg.Pool> | undefined
  let closed = false
  const retired = new Set<Promise<void>>()
  const retire = (pool: pg.Pool) => {
    const ending = pool.end().catch(() => undefined)
    retired.add(ending)
    void ending.finally(() => retired.delete(ending))
  }
  return {
    pool() {
      if (closed) return Promise.reject(new Error('Cannot use a pool after calling end on the pool'))
      if (!current) {
        const election = electPool(targets)
        current = election
        // A failed election is not kept: the next query tries the hosts again.
        election.catch(() => {
          if (current === election) current = undefined
        })
      }
      return current
    },
    failed(pool, error) {
      const code = (error as { code?: unknown } | undefined)?.code
      if (!isStoreUnavailable(error) && code !== READ_ONLY_TRANSACTION) return
      void current?.then((elected) => {
        if (elected !== pool || closed) return
        current = undefined
        retire(pool)
      })
    },
    async end() {
      closed = true
      const elected = await current?.catch(() => undefined)
      current = undefined
      await elected?.end()
      await Promise.all(retired)
    },
  }
}

async function openPostgres(databaseUrl: string): Promise<RelationalStore> {
  const targets = parsePostgresTargets(databaseUrl)
  const [only] = targets.urls
  const source = targets.urls.length === 1 && targets.wants === 'any' && only ? fixedPool(only) : electedPool(targets)
  const query: Sql['query'] = async <Row>(text: string, params?: unknown[]) => {
    const pool = await source.pool()
    return sqlOn(
      pgRun(pool, (error) => source.failed(pool, error)),
      1,
    ).query<Row>(text, params)
  }
  // Fail at start with the connection error, not at the first request.
  try {
    await query('SELECT 1')
  } catch (error) {
    await source.end()
    throw error
  }
  return {
    engine: 'postgres',
    singleProcess: false,
    query,
    async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      const pool = await source.pool()
      const failed = (error: unknown) => source.failed(pool, error)
      let client: pg.PoolClient
      try {
        client = await pool.connect()
      } catch (error) {
        failed(error)
        throw error
      }
      let broken: Error | undefined
      // pg-pool listens for errors only on idle clients: a connection that dies while checked out
      // here (server stopped between two statements) would emit an unhandled 'error' and crash the
      // process. The statement in flight fails on its own; the connection is destroyed on release.
      const onError = (error: Error) => {
        broken = error
      }
      client.on('error', onError)
      try {
        await client.query('BEGIN')
        const result = await work(sqlOn(pgRun(client, failed), 1))
        await client.query('COMMIT')
        return result
      } catch (error) {
        failed(error)
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError
        })
        throw error
      } finally {
        // A connection whose rollback failed is in an unknown state: destroy it, never reuse it.
        client.removeListener('error', onError)
        client.release(broken)
      }
    },
    close: () => source.end(),
  }
}

// PGlite ---------------------------------------------------------------------------------------

function fromPglite(results: Results<Record<string, unknown>>[]): SqlResult<Record<string, unknown>> {
  const last = results.at(-1)
  return { rows: last?.rows ?? [], affectedRows: last?.affectedRows ?? 0 }
}

function pgliteRun(db: PGlite | Transaction): Run {
  return async (text, params) =>
    fromPglite(isScript(params) ? await db.exec(text) : [await db.query<Record<string, unknown>>(text, params)])
}

/**
 * Without `dataDir` the database lives in memory; `loadDataDir` starts it from a dumped data directory.
 * `sharedBuffers` replaces the 128MB PostgreSQL's initdb writes into postgresql.conf: PGlite's
 * buffers live in its WebAssembly memory, which grows as they fill and never shrinks, so they are
 * most of what PGlite adds to the process's RSS; a miss costs a read through the OS's page cache.
 */
export async function openPglite(options: {
  dataDir?: string
  loadDataDir?: Blob
  sharedBuffers?: string
}): Promise<RelationalStore> {
  // Loaded here, not at the top, so a process configured for PostgreSQL never loads the WASM engine.
  const { PGlite } = await import('@electric-sql/pglite')
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const db = await PGlite.create(options.dataDir, {
    loadDataDir: options.loadDataDir,
    ...(options.sharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] }
      : {}),
  })
  // PGlite's initdb leaves its ~1,000 files 0666: Emscripten's file system chmods each file to the
  // mode asked for, past the process umask. PostgreSQL asks 0600 for every file it creates later
  // (pg_file_create_mode), so one pass after opening makes the cluster private for good, data
  // directories made before this rule included; a umask could not, and a periodic pass need not.
  if (options.dataDir) makeTreePrivate(options.dataDir)
  return {
    engine: 'pglite',
    singleProcess: true,
    query: sqlOn(pgliteRun(db), 1).query,
    // PGlite is one connection; its transaction() holds a mutex that queues every other query.
    transaction: (work) => db.transaction((tx) => work(sqlOn(pgliteRun(tx), 1))),
    dumpDataDir: (compression = 'gzip') => db.dumpDataDir(compression),
    close: () => db.close(),
    memoryBytes: () => db.Module.HEAPU8.byteLength,
  }
}

/**
 * PostgreSQL when a URL is configured, otherwise PGlite persisted under `<dataDir>/pglite`, opened
 * only once this process holds the data directory's lock (PGlite's files belong to one process).
 */
export async function openRelationalStore(options: {
  databaseUrl?: string | undefined
  dataDir: string
  pgliteSharedBuffers?: string | undefined
}): Promise<RelationalStore> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl)
  return openHoldingDataDir(options.dataDir, () =>
    openPglite({ dataDir: join(options.dataDir, 'pglite'), sharedBuffers: options.pgliteSharedBuffers }),
  )
}
