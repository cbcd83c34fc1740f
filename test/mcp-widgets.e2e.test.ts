import { mkdir } from 'node:fs/promises'
import { serviceAvailable } from '@guard/shared/testing'
import { build } from 'esbuild'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guardTools } from '../collector/src/mcp/tools.ts'
import { WIDGETS, type WidgetName, widgetHtml } from '../collector/src/mcp/widgets.ts'

const CHROMIUM = serviceAvailable('chromium', ['/usr/bin/chromium', '/usr/bin/chromium-browser'])
const ARTIFACTS = new URL('./artifacts/mcp-widgets/', import.meta.url)
/** Made-up origin of the test host; the router answers it, and anything else counts as leaving the page. */
const HOST = 'http://assistant.test'

const SAMPLES: Record<WidgetName, Record<string, unknown>> = {
  dashboard: {
    domains: { total: 12, up: 11, down: 1, uptime: 99.42 },
    devices: { total: 4, online: 3, offline: 1 },
    services: { total: 6, up: 6, down: 0 },
    heartbeats: { total: 3, up: 2, down: 1 },
    incidents: { active: 2, critical: 1 },
  },
  incidents: {
    incidents: [
      {
        id: 'inc-1',
        organizationId: 'org-1',
        title: 'Checkout <b>down</b> in fra',
        status: 'investigating',
        severity: 'critical',
        impact: 'major',
        detectedAt: '2026-11-24T10:02:00.000Z',
        resolvedAt: null,
      },
      {
        id: 'inc-2',
        organizationId: 'org-1',
        title: 'Certificate of api.example expires in 7 days',
        status: 'resolved',
        severity: 'medium',
        impact: 'minor',
        detectedAt: '2026-11-20T08:00:00.000Z',
        resolvedAt: '2026-11-21T09:30:00.000Z',
      },
    ],
    total: 2,
    summary: { open: 1, critical: 1 },
  },
  domains: {
    summary: { total: 3, up: 2, down: 1, avgResponseTime: 183.5, uptime: 97.8 },
    domains: [
      {
        id: 'd1',
        organizationId: 'org-1',
        name: 'Shop',
        url: 'https://shop.example',
        status: 'up',
        responseTime: 120,
        uptime: 100,
      },
      {
        id: 'd2',
        organizationId: 'org-1',
        name: 'API',
        url: 'https://api.example',
        status: 'degraded',
        responseTime: 310,
        uptime: 99.1,
      },
      { id: null, organizationId: 'org-1', name: 'Blog', url: null, status: 'down', responseTime: null, uptime: 94.3 },
    ],
  },
  heartbeats: {
    heartbeats: [
      {
        id: 'h1',
        name: 'Nightly <i>backup</i>',
        status: 'down',
        reason: 'missed',
        lastPingAt: '2026-11-23T01:00:04.000Z',
        nextExpectedAt: '2026-11-25T01:00:00.000Z',
      },
      {
        id: 'h2',
        name: 'Queue worker',
        status: 'up',
        reason: null,
        lastPingAt: '2026-11-24T10:01:00.000Z',
        nextExpectedAt: '2026-11-24T10:02:00.000Z',
      },
    ],
    total: 2,
    up: 1,
    down: 1,
  },
}

/** The host side as assistants run it: ext-apps' AppBridge in the page, the widget in a sandboxed frame. */
const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
window.showWidget = async (name, theme, structuredContent) => {
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-scripts')
  frame.style.cssText = 'width:760px;height:640px;border:0'
  document.body.append(frame)
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, {}, { hostContext: { theme } })
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve })
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow))
  frame.src = '/widget/' + name
  await initialized
  await bridge.sendToolResult({ content: [{ type: 'text', text: 'summary' }], structuredContent })
}
`

describe.skipIf(!CHROMIUM)('MCP widgets in headless Chromium', () => {
  let browser: Browser
  let hostScript: string

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true })
    const built = await build({
      stdin: { contents: HOST_SCRIPT, resolveDir: process.cwd(), loader: 'js' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      logLevel: 'silent',
    })
    hostScript = built.outputFiles[0]!.text
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  for (const name of Object.keys(WIDGETS) as WidgetName[]) {
    it(`${name} draws a sample ${WIDGETS[name].tool} result, light and dark, with no error and no request out`, async () => {
      const output = guardTools.find((tool) => tool.name === WIDGETS[name].tool)!.output
      expect(output.safeParse(SAMPLES[name]).success).toBe(true)
      const html = await widgetHtml(name)
      for (const theme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width: 800, height: 700 } })
        const leaving: string[] = []
        const problems: string[] = []
        await context.route('**/*', async (route) => {
          const url = route.request().url()
          if (url === `${HOST}/`) {
            return route.fulfill({
              contentType: 'text/html',
              body: `<!doctype html><html><body><script>${hostScript}</script></body></html>`,
            })
          }
          if (url === `${HOST}/widget/${name}`) return route.fulfill({ contentType: 'text/html', body: html })
          leaving.push(url)
          return route.abort()
        })
        const page = await context.newPage()
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
        })
        page.on('pageerror', (error) => problems.push(error.message))
        await page.goto(`${HOST}/`)
        await page.evaluate(
          ([widget, mode, data]) =>
            (globalThis as unknown as { showWidget: (...args: unknown[]) => Promise<void> }).showWidget(
              widget,
              mode,
              data,
            ),
          [name, theme, SAMPLES[name]] as const,
        )
        const frame = page.frameLocator('iframe')
        await expect.poll(() => frame.locator('body[data-rendered="true"]').count(), { timeout: 10_000 }).toBe(1)
        expect(await frame.locator('html').getAttribute('data-theme')).toBe(theme)
        const text = await frame.locator('#root').innerText()
        if (name === 'dashboard') expect(text).toMatch(/11 \/ 12[\s\S]*99\.42 %/)
        if (name === 'incidents') {
          expect(text).toContain('Checkout <b>down</b> in fra')
          expect(await frame.locator('#root b').count()).toBe(0)
          expect(await frame.locator('tbody tr').count()).toBe(2)
        }
        if (name === 'domains') expect(await frame.locator('tbody tr').count()).toBe(3)
        if (name === 'heartbeats') {
          expect(await frame.locator('tbody tr').count()).toBe(2)
          expect(text).toContain('Nightly <i>backup</i>')
          expect(text).toContain('no ping in time')
          expect(text).toMatch(/1 \/ 2/)
        }
        if (name === 'dashboard') expect(text).toMatch(/2 \/ 3\s*Heartbeats up/)
        const background = await frame.locator('body').evaluate(
          (body) =>
            // biome-ignore lint/suspicious/noExplicitAny: the browser's globals, not typed in this Node project
            (globalThis as any).getComputedStyle(body).backgroundColor,
        )
        expect(background).toBe(theme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)')
        await page.screenshot({ path: new URL(`${name}-${theme}.png`, ARTIFACTS).pathname })
        expect(problems).toEqual([])
        expect(leaving).toEqual([])
        await context.close()
      }
    }, 60_000)
  }
})
