import type { CheckResult, TimeSeriesStore } from '@guard/shared'
import { selectRows } from './query.ts'

/** check_results' columns in the order toRow gives them; JSONCompactEachRow rows are arrays, cheaper to write and parse. */
const COLUMNS = [
  'id',
  'organization_id',
  'monitor_id',
  'location',
  'kind',
  'status',
  'started_at',
  'response_time_ms',
  'status_code',
  'error',
  'error_kind',
  'probe_degraded',
  'dns_ms',
  'connect_ms',
  'tls_ms',
  'first_byte_ms',
  'transfer_ms',
  'query_ms',
  'cert_valid',
  'cert_expires_at',
  'cert_issuer',
  'cert_subject',
] as const satisfies readonly string[]

const toRow = (result: CheckResult) => [
  result.id,
  result.organizationId,
  result.monitorId,
  result.location,
  result.kind,
  result.status,
  Date.parse(result.startedAt),
  result.responseTimeMs,
  result.statusCode ?? 0,
  result.error ?? '',
  result.errorKind ?? '',
  result.probeDegraded ? 1 : 0,
  result.phases?.dnsMs ?? null,
  result.phases?.connectMs ?? null,
  result.phases?.tlsMs ?? null,
  result.phases?.firstByteMs ?? null,
  result.phases?.transferMs ?? null,
  result.phases?.queryMs ?? null,
  result.certificate ? Number(result.certificate.valid) : null,
  result.certificate ? Date.parse(result.certificate.expiresAt) : null,
  result.certificate?.issuer ?? '',
  result.certificate?.subject ?? '',
]

/**
 * Ids of `results` already stored. The filter on monitor and time range lets ClickHouse read only
 * the granules of the primary key that can hold them, however large the table is.
 */
async function storedIds(timeseries: TimeSeriesStore, results: CheckResult[]): Promise<Set<string>> {
  const times = results.map((result) => Date.parse(result.startedAt))
  const rows = await selectRows<{ id: string }>(
    timeseries,
    `SELECT id FROM check_results
      WHERE organization_id IN {orgs:Array(String)} AND monitor_id IN {monitors:Array(String)}
        AND started_at BETWEEN fromUnixTimestamp64Milli({from:Int64}) AND fromUnixTimestamp64Milli({to:Int64})
        AND id IN {ids:Array(String)}`,
    {
      orgs: [...new Set(results.map((result) => result.organizationId))],
      monitors: [...new Set(results.map((result) => result.monitorId))],
      from: Math.min(...times),
      to: Math.max(...times),
      ids: results.map((result) => result.id),
    },
  )
  return new Set(rows.map((row) => row.id))
}

/**
 * One INSERT per batch: ClickHouse wants few large inserts, not many small ones. Results already
 * stored (a redelivery after a crash) and repeats inside the batch are left out, because the
 * rollup views would count them again; the raw table would collapse them anyway (ReplacingMergeTree
 * read with FINAL). Returns the results inserted now.
 */
export async function storeResults(
  timeseries: TimeSeriesStore,
  results: CheckResult[],
  onPhase: (phase: 'dedupe' | 'insert', seconds: number) => void = () => {},
  /** Ids known not to be stored yet, so not asked about (see applyResultsToState's `newer`). */
  unseen: ReadonlySet<string> = new Set(),
): Promise<CheckResult[]> {
  if (results.length === 0) return []
  let started = performance.now()
  const unknown = results.filter((result) => !unseen.has(result.id))
  const known = unknown.length > 0 ? await storedIds(timeseries, unknown) : new Set<string>()
  onPhase('dedupe', (performance.now() - started) / 1000)
  const fresh: CheckResult[] = []
  for (const result of results) {
    if (known.has(result.id)) continue
    known.add(result.id)
    fresh.push(result)
  }
  if (fresh.length === 0) return []
  started = performance.now()
  await timeseries.client.insert({
    table: 'check_results',
    columns: [...COLUMNS],
    values: fresh.map(toRow),
    format: 'JSONCompactEachRow',
  })
  onPhase('insert', (performance.now() - started) / 1000)
  return fresh
}
