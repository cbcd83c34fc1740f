import type { Caller, CollectorContext } from '../../context.ts'
import { renderOpenMetrics } from './render-openmetrics.ts'
import { selectMonitorMetrics } from './select-monitor-metrics.ts'

interface Entry {
  expiresAt: number
  text: Promise<string>
}

/** Per context (so tests on separate collectors never share), per organization. */
const cacheByContext = new WeakMap<CollectorContext, Map<string, Entry>>()

/**
 * The caller's organization's monitors, devices and SLOs in OpenMetrics text. One organization's
 * text serves its scrapes for GUARD_MONITOR_METRICS_CACHE_MS, so several Prometheus replicas (or a
 * scrape every few seconds) cost one read; concurrent scrapes share the read in flight; a failed
 * read is not kept.
 */
export async function readMonitorMetrics({
  ctx,
  caller,
  now = Date.now(),
}: {
  ctx: CollectorContext
  caller: Caller
  now?: number
}): Promise<string> {
  let cache = cacheByContext.get(ctx)
  if (!cache) {
    cache = new Map()
    cacheByContext.set(ctx, cache)
  }
  const organizationId = caller.organizationId
  const cached = cache.get(organizationId)
  if (cached && cached.expiresAt > now) return cached.text
  for (const [id, entry] of cache) if (entry.expiresAt <= now) cache.delete(id)
  const text = selectMonitorMetrics(ctx.sql, organizationId).then((snapshot) => renderOpenMetrics(snapshot, now))
  const entry = { expiresAt: now + ctx.env.GUARD_MONITOR_METRICS_CACHE_MS, text }
  cache.set(organizationId, entry)
  text.catch(() => {
    if (cache.get(organizationId) === entry) cache.delete(organizationId)
  })
  return text
}
