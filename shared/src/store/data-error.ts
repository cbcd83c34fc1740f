/**
 * ClickHouse error names that mean the rows themselves cannot be stored, whatever the server's
 * health: a parse, type or range failure. Overload and outage names (MEMORY_LIMIT_EXCEEDED,
 * TOO_MANY_PARTS, timeouts) are absent on purpose: those pass, and a batch that met them must wait.
 */
const CLICKHOUSE_DATA_ERRORS =
  /\b(CANNOT_PARSE_[A-Z_]+|CANNOT_READ_[A-Z_]+|TYPE_MISMATCH|INCORRECT_DATA|VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE|TOO_LARGE_STRING_SIZE|CANNOT_CONVERT_TYPE|ILLEGAL_TYPE_OF_ARGUMENT|ILLEGAL_COLUMN|INCORRECT_NUMBER_OF_COLUMNS|CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN|UNICODE_ERROR|TOO_LARGE_ARRAY_SIZE)\b|Cannot parse|cannot parse/

/**
 * True when `error` says that what was written is wrong, not that the store is away: PostgreSQL's
 * SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation), or a ClickHouse
 * parse or type error. Writing the same rows again fails the same way, so the ingest isolates
 * them instead of retrying; any other error keeps the batch retried in place, in order.
 */
export function isDataError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false
  const { code, type, message, cause } = error as { code?: unknown; type?: unknown; message?: unknown; cause?: unknown }
  if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true
  if (typeof type === 'string' && CLICKHOUSE_DATA_ERRORS.test(type)) return true
  if (typeof message === 'string' && CLICKHOUSE_DATA_ERRORS.test(message)) return true
  return isDataError(cause, depth + 1)
}
