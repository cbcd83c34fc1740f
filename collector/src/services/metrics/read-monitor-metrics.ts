import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { bodyFor, type ContentEncoding, compressBody, type EncodedBody, encodeBody } from '../encoded-body.ts'
import { renderOpenMetrics } from './render-openmetrics.ts'
import { selectMonitorMetrics } from './select-monitor-metrics.ts'

interface Entry {
  expiresAt: number
  /** The organization's read-cache generation when the read began: a write since makes it stale. */
  generation: number
  body: Promise<EncodedBody>
}

/** Per context (so tests on separate collectors never share), per organization. */
const cacheByContext = new WeakMap<CollectorContext, Map<string, Entry>>()

const readMonitorMetricsInput = z.object({
  /** The scraper's Accept-Encoding header (Prometheus sends `gzip`). */
  acceptEncoding: z.string().max(1000).optional(),
})

/**
 * The caller's organization's monitors, devices and SLOs in OpenMetrics text, as bytes: gzipped when
 * the scraper accepts it. One organization's text (and its gzip copy, made once off the event loop)
 * serves its scrapes for GUARD_MONITOR_METRICS_CACHE_MS or until a write to the organization (a
 * monitor added, renamed, retagged), so several Prometheus replicas cost one read; concurrent scrapes
 * share the read in flight (also with the cache off); a failed read is not kept. Ingested results do not end an entry early: at
 * 10,000 monitors they arrive every second, and the TTL already bounds how old a figure is.
 */
export async function readMonitorMetrics({
  ctx,
  caller,
  input,
  now = Date.now(),
}: {
  ctx: CollectorContext
  caller: Caller
  input: z.input<typeof readMonitorMetricsInput>
  now?: number
}): Promise<{ encoding: ContentEncoding | undefined; bytes: Buffer }> {
  const { acceptEncoding } = readMonitorMetricsInput.parse(input)
  const body = await bodyOf(ctx, caller.organizationId, now)
  // Prometheus scrapes right after the entry is made: it waits for the gzip copy rather than getting megabytes plain.
  if (acceptEncoding && /\bgzip\b/i.test(acceptEncoding)) await compressBody(body, ['gzip'])
  return bodyFor(body, acceptEncoding)
}

function bodyOf(ctx: CollectorContext, organizationId: string, now: number): Promise<EncodedBody> {
  let cache = cacheByContext.get(ctx)
  if (!cache) {
    cache = new Map()
    cacheByContext.set(ctx, cache)
  }
  const [generation = 0] = ctx.reads.generations([organizationId])
  const cached = cache.get(organizationId)
  if (cached && cached.expiresAt > now && cached.generation === generation) return cached.body
  for (const [id, entry] of cache) if (entry.expiresAt <= now) cache.delete(id)
  const body = selectMonitorMetrics(ctx.sql, organizationId)
    .then((snapshot) => renderOpenMetrics(snapshot, now))
    .then(encodeBody)
  // The TTL runs from when the text is ready: a read slower than the TTL would otherwise be stale on arrival.
  const entry = { expiresAt: Number.POSITIVE_INFINITY, generation, body }
  cache.set(organizationId, entry)
  body.then(
    () => {
      entry.expiresAt = Date.now() + ctx.env.GUARD_MONITOR_METRICS_CACHE_MS
    },
    () => {
      if (cache.get(organizationId) === entry) cache.delete(organizationId)
    },
  )
  return body
}
