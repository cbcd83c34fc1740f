import { Counter, Gauge, Histogram, Registry } from 'prom-client'

/** Prometheus metrics of the result ingest, served at GET /metrics. One registry per collector. */
export function createIngestMetrics() {
  const registry = new Registry()
  return {
    registry,
    stored: new Counter({
      name: 'guard_ingest_results_stored_total',
      help: 'Results inserted, counted once their batch is acked',
      registers: [registry],
    }),
    duplicates: new Counter({
      name: 'guard_ingest_results_duplicate_total',
      help: 'Redelivered results skipped because they were already stored',
      registers: [registry],
    }),
    storeFailures: new Counter({
      name: 'guard_ingest_store_failures_total',
      help: 'Attempts to store a batch that failed (the batch is retried in place, in order)',
      labelNames: ['store'] as const,
      registers: [registry],
    }),
    retrying: new Gauge({
      name: 'guard_ingest_retrying',
      help: '1 while a batch is being retried because this store fails',
      labelNames: ['store'] as const,
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'guard_ingest_dead_letter_total',
      help: 'Messages kept in the dead-letter stream (GET /api/admin/dead-letters), by the stream they left and why: contract, data (a store refused them) or handler',
      labelNames: ['source', 'reason'] as const,
      registers: [registry],
    }),
    batchSize: new Histogram({
      name: 'guard_ingest_batch_size',
      help: 'Messages per consumed batch',
      buckets: [1, 10, 50, 100, 250, 500, 1000, 2500, 5000],
      registers: [registry],
    }),
    lag: new Histogram({
      name: 'guard_ingest_lag_seconds',
      help: 'Time from a check starting to its result being stored',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800],
      registers: [registry],
    }),
    phaseSeconds: new Counter({
      name: 'guard_ingest_phase_seconds_total',
      help: 'Time batches spent per phase (decode, dedupe, insert, state, ack; summary: the refresher, after the ack); store and state overlap, and a batch acks while the next is stored',
      labelNames: ['phase'],
      registers: [registry],
    }),
    lastLag: new Gauge({
      name: 'guard_ingest_last_batch_lag_seconds',
      help: 'Lag of the oldest result in the latest stored batch',
      registers: [registry],
    }),
  }
}

export type IngestMetrics = ReturnType<typeof createIngestMetrics>
