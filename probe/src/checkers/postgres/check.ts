import type { QueryArrayConfig } from 'pg'
import type { Checker } from '../../checker.ts'
import { type DatabaseDriver, runDatabaseCheck } from '../database/run.ts'

type PostgresTarget = Parameters<Checker<'postgres'>['check']>[0]

/** SQLSTATE class 28: invalid authorization (wrong password, no such role, refused by pg_hba). */
const AUTH_STATES = new Set(['28P01', '28000'])

const sqlState = (error: unknown) =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined

const postgresDriver: DatabaseDriver<PostgresTarget> = {
  defaultPort: 5432,
  async connect(target, { vetted, port, tls }, context) {
    const { default: pg } = await import('pg')
    const timeoutMs = Math.max(1, Math.ceil(context.timeoutMs))
    const client = new pg.Client({
      host: vetted.address,
      port,
      user: target.username ?? 'postgres',
      database: target.database ?? 'postgres',
      ...(target.secrets?.password ? { password: target.secrets.password } : {}),
      ssl: tls ? tls.options : false,
      connectionTimeoutMillis: timeoutMs,
      application_name: 'guard-probe',
      // Every transaction of the session is read-only and bounded, set at sign-in without a round trip.
      options: `-c default_transaction_read_only=on -c statement_timeout=${timeoutMs}`,
    })
    client.on('error', () => undefined)
    try {
      await client.connect()
    } catch (error) {
      client.end().catch(() => undefined)
      throw error
    }
    return {
      async query() {
        // The extended protocol takes one statement, so a query cannot switch read-only off first.
        const statement: QueryArrayConfig & { queryMode: 'extended' } = {
          text: target.query ?? 'SELECT 1',
          rowMode: 'array',
          queryMode: 'extended',
        }
        const result = await client.query(statement)
        const row = result.rows[0]
        return { rowCount: result.rows.length, ...(row ? { first: { value: row[0] } } : {}) }
      },
      close: () => {
        client.end().catch(() => undefined)
      },
    }
  },
  isAuthFailure: (error) => {
    const state = sqlState(error)
    if (state) return AUTH_STATES.has(state)
    // pg's own refusal when the server asks for a password and the monitor has none.
    return error instanceof Error && /client password must be a string/.test(error.message)
  },
  isQueryFailure: (error) => {
    const state = sqlState(error)
    return state !== undefined && /^[0-9A-Z]{5}$/.test(state)
  },
}

/** PostgreSQL: signs in, runs `SELECT 1` or the monitor's query read-only, asserts its answer. */
export const postgresChecker: Checker<'postgres'> = {
  kind: 'postgres',
  check: (target, context) => runDatabaseCheck(target, context, postgresDriver),
}
