import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resultFor } from '../../routes/test-helpers.ts'
import { collectorForTest, startReceiver, userCaller, waitUntil } from '../../test-support.ts'
import { createDomain } from '../domains/create.ts'
import { applyResultsToState } from '../monitor-state/apply-results.ts'
import { startOtlpMetricsExport } from './export-otlp.ts'

interface OtlpBody {
  resourceMetrics: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }
    scopeMetrics: Array<{
      metrics: Array<{
        name: string
        gauge?: {
          dataPoints: Array<{
            asInt?: number
            asDouble?: number
            attributes: Array<{ key: string; value: { stringValue?: string } }>
          }>
        }
      }>
    }>
  }>
}

describe('OTLP/HTTP metrics export', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let harness: Awaited<ReturnType<typeof collectorForTest>>

  beforeAll(async () => {
    receiver = await startReceiver()
    harness = await collectorForTest({
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: receiver.url,
      OTEL_METRIC_EXPORT_INTERVAL: '1000',
    })
  })

  afterAll(async () => {
    await harness.close()
    await receiver.close()
  })

  it('stays off without an OTLP endpoint', () => {
    const env = { ...harness.ctx.env, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: undefined }
    expect(startOtlpMetricsExport({ ctx: { ...harness.ctx, env } })).toBeUndefined()
  })

  it('pushes every organization’s monitors to the configured endpoint, their organization, name and tags on the info point only', {
    timeout: 30_000,
  }, async () => {
    const caller = userCaller('otlp-user', [DEFAULT_ORGANIZATION.id])
    const domain = await createDomain({
      ctx: harness.ctx,
      caller,
      input: { url: 'https://otlp.example', tags: ['env:prod'] },
    })
    await applyResultsToState(harness.ctx.sql, [resultFor(domain.id, DEFAULT_ORGANIZATION.id, 'fra', 5, 'up', 20)])
    const exporter = startOtlpMetricsExport({ ctx: harness.ctx })
    try {
      await waitUntil(
        () => receiver.received.some((request) => request.body.includes('guard_monitor_up')),
        'an OTLP export',
        15_000,
      )
    } finally {
      await exporter?.stop()
    }
    const body = JSON.parse(
      receiver.received.find((request) => request.body.includes('guard_monitor_up'))!.body,
    ) as OtlpBody
    const [resource] = body.resourceMetrics
    expect(resource?.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'guard-collector' },
    })
    const metrics = resource?.scopeMetrics.flatMap((scope) => scope.metrics) ?? []
    const pointOf = (name: string) => metrics.find((metric) => metric.name === name)?.gauge?.dataPoints[0]
    const attributesOf = (point: ReturnType<typeof pointOf>) =>
      Object.fromEntries((point?.attributes ?? []).map(({ key, value }) => [key, value.stringValue]))
    const up = pointOf('guard_monitor_up')
    expect(up?.asInt ?? up?.asDouble).toBe(1)
    expect(attributesOf(up)).toEqual({ monitor_id: domain.id })
    const info = pointOf('guard_monitor_info')
    expect(info?.asInt ?? info?.asDouble).toBe(1)
    expect(attributesOf(info)).toMatchObject({
      organization_id: DEFAULT_ORGANIZATION.id,
      monitor_id: domain.id,
      kind: 'domain',
      tag_env: 'prod',
    })
  })
})
