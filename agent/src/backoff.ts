/**
 * Delay before retry `attempt` (1, 2, …): exponential from `baseMs`, capped at `maxMs`, drawn at
 * random from the upper half of that (jitter), so agents that lost the collector together do not come
 * back in one wave.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(cap / 2 + random() * (cap / 2))
}
