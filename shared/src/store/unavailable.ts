// Node's socket errors and PostgreSQL's SQLSTATEs that mean "the server is not there right now".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // read_only_sql_transaction: the server is a standby (a failover in progress, or not yet promoted).
  '25006',
])

/**
 * A socket that cannot be opened, whatever the reason, means the server is not there: besides the
 * codes above, a Unix socket whose file is gone (ENOENT, the server stopped) or not ours (EACCES).
 */
const CONNECTING_SYSCALLS = new Set(['connect', 'getaddrinfo'])

const UNAVAILABLE_MESSAGES =
  /connection terminated|connection timeout|timeout exceeded when trying to connect|socket hang up|client has encountered a connection error|the database system is (starting up|shutting down)|Cannot use a pool after calling end|PGlite is closed/i

/**
 * True when `error` says a store (PostgreSQL, ClickHouse) cannot be reached, rather than that the
 * request was wrong: the HTTP edge answers 503 with Retry-After instead of 500.
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false
  const { code, syscall, message, cause, errors } = error as {
    code?: unknown
    syscall?: unknown
    message?: unknown
    cause?: unknown
    errors?: unknown
  }
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08/.test(code))) return true
  if (typeof syscall === 'string' && CONNECTING_SYSCALLS.has(syscall)) return true
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true
  if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true
  return isStoreUnavailable(cause, depth + 1)
}

/** Seconds a client should wait before retrying while a store is away. */
export const STORE_RETRY_AFTER_SECONDS = 5
