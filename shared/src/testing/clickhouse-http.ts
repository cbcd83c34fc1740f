import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { openChdbSession } from '../store/chdb.ts'
import { openTimeSeriesStore } from '../store/timeseries.ts'
import type { TimeSeriesStore } from '../store/types.ts'

/**
 * A test double of ClickHouse's HTTP interface over chDB: the subset @clickhouse/client uses, so the
 * CLICKHOUSE_URL path runs its real SQL without a ClickHouse server. Queries run one at a time on
 * one chDB session of the process; each request sets its own database, settings and parameters.
 * Not covered: compression of answers, sessions (session_id), users and grants (only one basic-auth
 * user, when given), cluster and distributed tables, async inserts, progress headers, streaming.
 */
export interface ClickHouseDouble {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Requests answered so far, by kind, so a test can prove its traffic went through the double. */
  requests: { ping: number; query: number; failed: number }
  close(): Promise<void>
}

/** URL parameters that are not settings. */
const NOT_SETTINGS = new Set(['query', 'database', 'query_id', 'default_format', 'user', 'password'])

/** Parameters of the HTTP layer itself (what a ClickHouse server handles before the engine), and sessions. */
const HTTP_ONLY = new Set([
  'wait_end_of_query',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'enable_http_compression',
  'http_zlib_compression_level',
  'session_id',
  'session_timeout',
  'session_check',
  'compress',
  'decompress',
])

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A server's defaults where chDB's differ, set before each request's own: a server quotes 64-bit integers in JSON. */
const SERVER_DEFAULTS = ['SET output_format_json_quote_64bit_integers = 1']

/** A ClickHouse string literal holding `text` exactly. */
const literal = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

/** ClickHouse's HTTP statuses for the error codes a test meets; anything else is a 500, as on a server. */
function statusOf(code: number): number {
  if (code === 62) return 400 // SYNTAX_ERROR
  if (code === 60 || code === 81) return 404 // UNKNOWN_TABLE, UNKNOWN_DATABASE
  if (code === 516) return 403 // AUTHENTICATION_FAILED
  return 500
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks)
  return (request.headers['content-encoding'] === 'gzip' ? await promisify(gunzip)(raw) : raw).toString('utf8')
}

/**
 * The statement chDB runs for one request: the database and settings it names, its `param_*`
 * values as given (ClickHouse parses them by the placeholder's type), then its SQL: the `query`
 * parameter followed by the body (an insert's rows), or the body alone.
 */
function statementOf(search: URLSearchParams, body: string): string {
  const prefix = [...SERVER_DEFAULTS]
  const database = search.get('database')
  if (database) {
    if (!SETTING_NAME.test(database)) throw Object.assign(new Error('bad database name'), { code: 81 })
    prefix.push(`USE ${database}`)
  }
  for (const [name, value] of search) {
    if (NOT_SETTINGS.has(name) || HTTP_ONLY.has(name)) continue
    if (!SETTING_NAME.test(name)) throw Object.assign(new Error(`bad parameter name ${name}`), { code: 115 })
    prefix.push(`SET ${name} = ${literal(value)}`)
  }
  const query = search.get('query')
  const sql = query === null ? body : body === '' ? query : `${query}\n${body}`
  return [...prefix, sql].join(';\n')
}

function authorized(request: IncomingMessage, search: URLSearchParams, user?: string, password?: string): boolean {
  if (user === undefined) return true
  const header = request.headers.authorization
  const [given, secret] = header?.startsWith('Basic ')
    ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(/:(.*)/s, 2)
    : [
        request.headers['x-clickhouse-user'] ?? search.get('user'),
        request.headers['x-clickhouse-key'] ?? search.get('password'),
      ]
  return given === user && (secret ?? '') === (password ?? '')
}

/** Starts the double on a free 127.0.0.1 port; `user` and `password`, when given, are the only credentials it accepts. */
export async function startClickHouseDouble(
  options: { user?: string; password?: string } = {},
): Promise<ClickHouseDouble> {
  const session = await openChdbSession()
  const engine = session.connection.chdb
  const requests = { ping: 0, query: 0, failed: 0 }
  // chDB runs one statement at a time per session; the chain also keeps each request's SETs its own.
  let queue: Promise<unknown> = Promise.resolve()

  const fail = (response: ServerResponse, code: number, message: string) => {
    requests.failed++
    const text = /^Code: \d+\./.test(message) ? message : `Code: ${code}. DB::Exception: ${message}`
    response.writeHead(statusOf(code), {
      'content-type': 'text/plain; charset=UTF-8',
      'x-clickhouse-exception-code': String(code),
    })
    response.end(`${text}\n`)
  }

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://double')
    if (url.pathname === '/ping') {
      requests.ping++
      response.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end('Ok.\n')
      return
    }
    if (url.pathname !== '/' || (request.method !== 'GET' && request.method !== 'POST')) {
      fail(response, 0, `no such handler: ${request.method} ${url.pathname} (UNKNOWN_HANDLER)`)
      return
    }
    const body = await bodyOf(request)
    if (!authorized(request, url.searchParams, options.user, options.password)) {
      fail(
        response,
        516,
        'default: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)',
      )
      return
    }
    requests.query++
    const queryId = url.searchParams.get('query_id') ?? randomUUID()
    const format = url.searchParams.get('default_format') ?? 'TabSeparated'
    const run = queue.then(() => engine.queryAsync(statementOf(url.searchParams, body), { format }))
    queue = run.catch(() => undefined)
    try {
      const result = await run
      const bytes = Buffer.from(result.bytes())
      const rows = String(result.rowsRead ?? 0)
      response.writeHead(200, {
        'content-type': 'text/plain; charset=UTF-8',
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-summary': JSON.stringify({
          read_rows: rows,
          read_bytes: String(result.bytesRead ?? 0),
          written_rows: '0',
          written_bytes: '0',
          total_rows_to_read: '0',
          result_rows: rows,
          result_bytes: String(bytes.length),
          elapsed_ns: String(Math.round((result.elapsed ?? 0) * 1e9)),
        }),
      })
      response.end(bytes)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      fail(response, Number(/^Code: (\d+)\./.exec(message)?.[1] ?? 1000), message)
    }
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) fail(response, 1000, `${String(error)} (STD_EXCEPTION)`)
      else response.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await queue
      await session.release()
    },
  }
}

let shared: { double: Promise<ClickHouseDouble>; users: number } | undefined

/**
 * `openTestTimeSeriesStore` through the CLICKHOUSE_URL path: a fresh database `t_<random>` on the
 * process' one double (started on first use, stopped with its last store); `close()` drops it.
 */
export async function openTestTimeSeriesStoreOverHttp(): Promise<TimeSeriesStore> {
  shared ??= { double: startClickHouseDouble(), users: 0 }
  const slot = shared
  slot.users++
  const release = async () => {
    slot.users--
    if (slot.users > 0) return
    if (shared === slot) shared = undefined
    await (await slot.double).close()
  }
  try {
    const double = await slot.double
    const database = `t_${randomBytes(8).toString('hex')}`
    const store = await openTimeSeriesStore({ clickhouseUrl: double.url, database, dataDir: '/nonexistent' })
    return {
      ...store,
      async close() {
        try {
          await store.client.command({ query: `DROP DATABASE IF EXISTS ${database}` })
        } finally {
          await store.close()
          await release()
        }
      },
    }
  } catch (error) {
    await release()
    throw error
  }
}
