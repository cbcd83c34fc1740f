import type { Attributes, BatchObservableResult, Observable } from '@opentelemetry/api'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http'
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import type { CollectorContext } from '../../context.ts'
import { tagPairs } from './render-openmetrics.ts'
import { type MetricsSnapshot, selectMonitorMetrics } from './select-monitor-metrics.ts'

const tagAttributes = (tags: readonly string[]): Attributes => Object.fromEntries(tagPairs(tags))

/**
 * Observes every instrument from one snapshot per collection. Names and attributes are those of
 * GET /metrics/monitors (an OTLP backend that converts to Prometheus names finds the same series):
 * a monitor's (device's) name, kind, group, tags and organization are attributes of its
 * `guard_monitor_info` (`guard_device_info`) point only, the others carry `monitor_id` (and
 * `location`) to join on, so an export of every organization stays as small as a scrape.
 */
function observeSnapshot(
  snapshot: MetricsSnapshot,
  now: number,
  result: BatchObservableResult,
  gauges: Record<string, Observable>,
) {
  const observe = (name: string, value: number, attributes: Attributes) =>
    result.observe(gauges[name]!, value, attributes)
  for (const monitor of snapshot.monitors) {
    const key = { monitor_id: monitor.id }
    observe('guard_monitor_info', 1, {
      ...key,
      organization_id: monitor.organizationId,
      monitor: monitor.name,
      kind: monitor.kind,
      ...(monitor.group ? { group: monitor.group } : {}),
      ...tagAttributes(monitor.tags),
    })
    if (monitor.up !== null) observe('guard_monitor_up', monitor.up ? 1 : 0, key)
    for (const location of monitor.locations) {
      const at = { ...key, location: location.location }
      observe('guard_monitor_location_up', location.up ? 1 : 0, at)
      if (location.checks > 0) {
        observe('guard_monitor_response_seconds', location.responseMsSum / location.checks / 1000, at)
        observe('guard_monitor_uptime_ratio', 1 - location.failures / location.checks, at)
      }
    }
    if (monitor.certificateExpiresAt !== null) {
      observe('guard_monitor_certificate_expiry_seconds', (monitor.certificateExpiresAt - now) / 1000, key)
    }
    if (monitor.domainExpiresAt !== null) {
      observe('guard_monitor_domain_expiry_seconds', (monitor.domainExpiresAt - now) / 1000, key)
    }
    observe('guard_monitor_incidents_open', monitor.openIncidents, key)
    observe('guard_monitor_incidents', monitor.incidents, key)
  }
  const healthLevel: Record<string, number> = { healthy: 0, warning: 1, critical: 2 }
  for (const device of snapshot.devices) {
    const key = { device_id: device.id }
    observe('guard_device_info', 1, {
      ...key,
      organization_id: device.organizationId,
      device: device.name,
      ...(device.group ? { group: device.group } : {}),
      ...tagAttributes(device.tags),
    })
    observe('guard_device_up', device.online ? 1 : 0, key)
    observe('guard_device_health', healthLevel[device.health] ?? 0, key)
    if (device.lastSeenAt !== null) observe('guard_device_last_seen_timestamp_seconds', device.lastSeenAt / 1000, key)
  }
  for (const slo of snapshot.slos) {
    const labels = {
      organization_id: slo.organizationId,
      slo_id: slo.id,
      slo: slo.name,
      ...(slo.monitorId ? { monitor_id: slo.monitorId } : { group_id: slo.groupId ?? '' }),
    }
    observe('guard_slo_objective_ratio', slo.objectivePercent / 100, labels)
    observe('guard_slo_burn_rate', slo.burnRate ?? 0, labels)
  }
}

const GAUGES = [
  'guard_monitor_info',
  'guard_monitor_up',
  'guard_monitor_location_up',
  'guard_monitor_response_seconds',
  'guard_monitor_uptime_ratio',
  'guard_monitor_certificate_expiry_seconds',
  'guard_monitor_domain_expiry_seconds',
  'guard_monitor_incidents_open',
  'guard_device_info',
  'guard_device_up',
  'guard_device_health',
  'guard_device_last_seen_timestamp_seconds',
  'guard_slo_objective_ratio',
  'guard_slo_burn_rate',
]

/**
 * Pushes what GET /metrics/monitors shows, for every organization, over OTLP/HTTP every
 * OTEL_METRIC_EXPORT_INTERVAL ms, when an OTLP endpoint is configured; undefined otherwise. The
 * exporter takes headers, timeout, compression and certificates from the standard variables.
 */
export function startOtlpMetricsExport({ ctx }: { ctx: CollectorContext }): { stop(): Promise<void> } | undefined {
  const { env } = ctx
  if (env.OTEL_METRICS_EXPORTER === 'none') return undefined
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) return undefined
  // As the exporter would derive it from the process' environment, but from the parsed one.
  const metricsEndpoint =
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT ?? `${env.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, '')}/v1/metrics`
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: metricsEndpoint }),
        exportIntervalMillis: env.OTEL_METRIC_EXPORT_INTERVAL,
        exportTimeoutMillis: Math.min(30_000, env.OTEL_METRIC_EXPORT_INTERVAL),
      }),
    ],
  })
  const meter = provider.getMeter('guard-collector')
  const gauges: Record<string, Observable> = Object.fromEntries(
    GAUGES.map((name) => [name, meter.createObservableGauge(name)]),
  )
  gauges.guard_monitor_incidents = meter.createObservableCounter('guard_monitor_incidents')
  meter.addBatchObservableCallback(async (result) => {
    try {
      observeSnapshot(await selectMonitorMetrics(ctx.sql, null), Date.now(), result, gauges)
    } catch (error) {
      ctx.log.warn({ err: error }, 'metrics export: reading the monitor state failed, this interval is skipped')
    }
  }, Object.values(gauges))
  return { stop: () => provider.shutdown() }
}
