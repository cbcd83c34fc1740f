import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
export const PHONE = { width: 360, height: 1400 }

/**
 * axe-core's serious and critical violations on a public status page (none is the goal). The
 * pages' CSP allows only their own scripts, or none: axe is injected into a context made with
 * `bypassCSP`, as `inLightAndDark` makes them.
 */
export async function axeViolations(page: Page): Promise<Array<{ id: string; impact: string }>> {
  await page.addScriptTag({ path: AXE })
  const result = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe and document are browser globals the Node types lack
    const browserGlobals = globalThis as any
    return (await browserGlobals.axe.run(browserGlobals.document)) as {
      violations: Array<{ id: string; impact: string }>
    }
  })
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
}

/** Runs `visit` in a fresh context per colour scheme, light then dark, at a phone's width unless told. */
export async function inLightAndDark(
  browser: Browser,
  visit: (page: Page, colorScheme: 'light' | 'dark') => Promise<void>,
  viewport = PHONE,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport, colorScheme, bypassCSP: true })
    try {
      await visit(await context.newPage(), colorScheme)
    } finally {
      await context.close()
    }
  }
}
