import { BROWSER_RUN_LIMITS, type BrowserNavigation } from '@guard/shared/browser-run'
import type { BrowserContext } from 'playwright-core'
import { z } from 'zod'

const BINDING = '__guardVitals'

/**
 * Runs in every document before its own scripts: observes the main frame's navigation timing (http and https documents only),
 * largest contentful paint, layout shifts and long tasks, and reports the running totals to the
 * binding after each batch of entries. Each document is told apart by its time origin.
 */
const initScript = `(() => {
  const report = window.${BINDING}
  if (window !== window.top || typeof report !== 'function' || !/^https?:$/.test(location.protocol)) return
  const id = String(performance.timeOrigin)
  const state = { cls: 0, tbtMs: 0 }
  const observe = (type, take) => {
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) take(entry)
        report(id, location.href, state)
      }).observe({ type, buffered: true })
    } catch {}
  }
  observe('navigation', (entry) => { state.ttfbMs = entry.responseStart })
  observe('largest-contentful-paint', (entry) => { state.lcpMs = entry.startTime })
  observe('layout-shift', (entry) => { if (!entry.hadRecentInput) state.cls += entry.value })
  observe('longtask', (entry) => { state.tbtMs += Math.max(0, entry.duration - 50) })
})()`

// The page can call the binding itself: what it sends is checked, never trusted.
const report = z.object({
  ttfbMs: z.number().nonnegative().optional(),
  lcpMs: z.number().nonnegative().optional(),
  cls: z.number().nonnegative(),
  tbtMs: z.number().nonnegative(),
})

const round = (value: number | undefined, digits: number) =>
  value === undefined ? undefined : Math.round(value * 10 ** digits) / 10 ** digits

/** Calls `onNavigation` with the latest Web Vitals of each document the context's pages load. */
export async function watchWebVitals(
  context: BrowserContext,
  onNavigation: (id: string, navigation: BrowserNavigation) => void,
): Promise<void> {
  const seen = new Set<string>()
  await context.exposeFunction(BINDING, (id: unknown, url: unknown, state: unknown) => {
    const parsed = report.safeParse(state)
    if (typeof id !== 'string' || typeof url !== 'string' || !parsed.success) return
    if (!seen.has(id) && seen.size >= BROWSER_RUN_LIMITS.navigations) return
    seen.add(id)
    onNavigation(id.slice(0, 40), {
      url: url.slice(0, BROWSER_RUN_LIMITS.text),
      ttfbMs: round(parsed.data.ttfbMs, 1),
      lcpMs: round(parsed.data.lcpMs, 1),
      cls: round(parsed.data.cls, 4) ?? 0,
      tbtMs: round(parsed.data.tbtMs, 1) ?? 0,
    })
  })
  await context.addInitScript(initScript)
}
