import { connect } from 'node:net'
import { TLSSocket } from 'node:tls'
import type { Checker } from '../../checker.ts'
import { certificateOf } from '../certificate.ts'
import { type DatabaseDriver, runDatabaseCheck } from '../database/run.ts'

type MysqlTarget = Parameters<Checker<'mysql'>['check']>[0]

/** Access denied: to the server (1045), to the database (1044), for a socket-auth account (1698). */
const AUTH_ERRNOS = new Set([1044, 1045, 1698])

const serverErrno = (error: unknown) =>
  error instanceof Error && 'errno' in error && typeof error.errno === 'number' && 'sqlState' in error
    ? error.errno
    : undefined

const mysqlDriver: DatabaseDriver<MysqlTarget> = {
  defaultPort: 3306,
  async connect(target, { vetted, port, tls }, context) {
    const mysql = await import('mysql2/promise')
    const connection = await mysql.createConnection({
      // mysql2 takes the TLS server name and the name it verifies from `host`; the socket goes to
      // the vetted address, so the name is never resolved a second time.
      host: vetted.hostname,
      port,
      stream: () => connect({ host: vetted.address, port }),
      user: target.username ?? 'root',
      ...(target.secrets?.password ? { password: target.secrets.password } : {}),
      ...(target.database ? { database: target.database } : {}),
      ...(tls
        ? {
            ssl: { rejectUnauthorized: tls.options.rejectUnauthorized, verifyIdentity: tls.options.rejectUnauthorized },
          }
        : {}),
      connectTimeout: Math.max(1, Math.ceil(context.timeoutMs)),
    })
    connection.on('error', () => undefined)
    return {
      async query() {
        // One statement (multipleStatements is off) inside a transaction the server keeps read-only.
        await connection.query('START TRANSACTION READ ONLY')
        const [rows] = await connection.query({ sql: target.query ?? 'SELECT 1', rowsAsArray: true })
        const list: unknown[] = Array.isArray(rows) ? rows : []
        const row = list[0]
        return {
          rowCount: list.length,
          ...(Array.isArray(row) ? { first: { value: row[0] } } : {}),
        }
      },
      close: () => connection.destroy(),
      certificate: () => {
        // mysql2 swaps its socket for the TLS one after STARTTLS, on the core connection it does not type.
        const socket: unknown = Reflect.get(Reflect.get(connection, 'connection') ?? {}, 'stream')
        return socket instanceof TLSSocket ? certificateOf(socket) : undefined
      },
    }
  },
  isAuthFailure: (error) => AUTH_ERRNOS.has(serverErrno(error) ?? 0),
  isQueryFailure: (error) => serverErrno(error) !== undefined,
}

/** MySQL and MariaDB: signs in, runs `SELECT 1` or the monitor's query read-only, asserts its answer. */
export const mysqlChecker: Checker<'mysql'> = {
  kind: 'mysql',
  check: (target, context) => runDatabaseCheck(target, context, mysqlDriver),
}
