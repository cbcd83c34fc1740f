import type { Caller, CollectorContext } from '../../context.ts'
import { renderOpenMetrics } from './render-openmetrics.ts'
import { selectMonitorMetrics } from './select-monitor-metrics.ts'

/**
 * How long one organization's rendered text serves its scrapes. Several Prometheus replicas (or a
 * scrape every few seconds) then cost one read; the figures are at most this old.
 */
export const MONITOR_METRICS_TTL_MS = 5_000

interface Entry {
  expiresAt: number
  text: Promise<string>
}

/** Per context (so tests on separate collectors never share), per organization. */
const cacheByContext = new WeakMap<CollectorContext, Map<string, Entry>>()

/**
 * The caller's organization's monitors, devices and SLOs in OpenMetrics text. Concurrent scrapes
 * of one organization share the read in flight; a failed read is not kept.
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
  const entry = { expiresAt: now + MONITOR_METRICS_TTL_MS, text }
  cache.set(organizationId, entry)
  text.catch(() => {
    if (cache.get(organizationId) === entry) cache.delete(organizationId)
  })
  return text
}
