import type { CheckResult } from '@guard/shared'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Outbox, OutboxDrops } from './outbox/outbox.ts'

export interface MetricSources {
  outbox: Outbox
  monitors: () => number
  inFlight: () => number
  connected: () => boolean
}

/** The probe's Prometheus metrics, in a registry of its own so embedded mode's other services stay apart. */
export function createProbeMetrics(location: string, sources: MetricSources) {
  const registry = new Registry()
  registry.setDefaultLabels({ location })
  collectDefaultMetrics({ register: registry, prefix: 'guard_probe_' })

  const checks = new Counter({
    name: 'guard_probe_checks_total',
    help: 'Checks run, by kind and status',
    labelNames: ['kind', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'guard_probe_check_duration_seconds',
    help: 'Response time measured by checks',
    labelNames: ['kind'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  const lag = new Histogram({
    name: 'guard_probe_schedule_lag_seconds',
    help: 'Actual start of a check minus its planned start',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  })
  const published = new Counter({
    name: 'guard_probe_results_published_total',
    help: 'Results stored by the results stream, sent directly or replayed from the outbox',
    labelNames: ['path'],
    registers: [registry],
  })
  new Gauge({
    name: 'guard_probe_outbox_entries',
    help: 'Results waiting in the on-disk outbox',
    registers: [registry],
    collect() {
      this.set(sources.outbox.depth)
    },
  })
  new Gauge({
    name: 'guard_probe_outbox_bytes',
    help: 'Bytes held by the on-disk outbox',
    registers: [registry],
    collect() {
      this.set(sources.outbox.bytes)
    },
  })
  const reported: OutboxDrops = { full: 0, expired: 0, corrupt: 0 }
  new Counter({
    name: 'guard_probe_outbox_dropped_total',
    help: 'Results the outbox discarded: full (byte limit), expired (age limit), corrupt (unreadable)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      for (const reason of ['full', 'expired', 'corrupt'] as const) {
        const delta = sources.outbox.drops[reason] - reported[reason]
        if (delta > 0) this.inc({ reason }, delta)
        reported[reason] = sources.outbox.drops[reason]
      }
    },
  })
  new Gauge({
    name: 'guard_probe_monitors',
    help: 'Monitors scheduled at this location',
    registers: [registry],
    collect() {
      this.set(sources.monitors())
    },
  })
  new Gauge({
    name: 'guard_probe_checks_in_flight',
    help: 'Checks running now',
    registers: [registry],
    collect() {
      this.set(sources.inFlight())
    },
  })
  new Gauge({
    name: 'guard_probe_bus_connected',
    help: '1 while NATS is reachable',
    registers: [registry],
    collect() {
      this.set(sources.connected() ? 1 : 0)
    },
  })

  return {
    registry,
    observeCheck(result: CheckResult) {
      checks.inc({ kind: result.kind, status: result.status })
      duration.observe({ kind: result.kind }, result.responseTimeMs / 1000)
    },
    observeLag(lagMs: number) {
      lag.observe(lagMs / 1000)
    },
    observePublished(replayed: boolean) {
      published.inc({ path: replayed ? 'replayed' : 'direct' })
    },
  }
}

export type ProbeMetrics = ReturnType<typeof createProbeMetrics>
