import type { CheckResult, TimeSeriesStore } from '@guard/shared'

const toRow = (result: CheckResult) => ({
  id: result.id,
  organization_id: result.organizationId,
  monitor_id: result.monitorId,
  location: result.location,
  kind: result.kind,
  status: result.status,
  started_at: Date.parse(result.startedAt),
  response_time_ms: result.responseTimeMs,
  status_code: result.statusCode ?? 0,
  error: result.error ?? '',
  dns_ms: result.phases?.dnsMs ?? null,
  connect_ms: result.phases?.connectMs ?? null,
  tls_ms: result.phases?.tlsMs ?? null,
  first_byte_ms: result.phases?.firstByteMs ?? null,
  transfer_ms: result.phases?.transferMs ?? null,
  cert_valid: result.certificate ? Number(result.certificate.valid) : null,
  cert_expires_at: result.certificate ? Date.parse(result.certificate.expiresAt) : null,
  cert_issuer: result.certificate?.issuer ?? '',
  cert_subject: result.certificate?.subject ?? '',
})

/** One INSERT per batch: ClickHouse wants few large inserts, not many small ones. */
export async function storeResults(timeseries: TimeSeriesStore, results: CheckResult[]): Promise<void> {
  if (results.length === 0) return
  await timeseries.client.insert({
    table: 'check_results',
    values: results.map(toRow),
    format: 'JSONEachRow',
  })
}
