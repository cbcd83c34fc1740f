import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from './support/collector-client.ts'
import {
  CHROMIUM,
  type ConsoleGuard,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  signInToConsole,
  startGuardForConsole,
} from './support/console-browser.ts'

/** test/console.e2e.test.ts saves to the same folder: these carry a `screens-` prefix so neither overwrites the other's. */
const shot = (page: Page, name: string) => saveScreenshot(page, `console/screens-${name}`)

describe.skipIf(!CHROMIUM)('the console screens, signed in, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page
  let base: string
  let apiKey: string
  const seeded: Record<string, string> = {}

  /** The REST API as a script with the API key sees it: how the test seeds data. */
  const rest = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, token = apiKey) => {
    const response = await fetch(new URL(path, base), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await response.json()) as { data: T }
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json.data
  }

  const heartbeat = (deviceId: string, token: string, at: Date, withInventory: boolean) =>
    rest(
      'POST',
      '/agent',
      {
        device_id: deviceId,
        timestamp: at.toISOString(),
        interval_seconds: 30,
        metrics: {
          cpu: { usage_percent: 20 + (at.getTime() % 7), cores: 4 },
          memory: { total_gb: 8, used_gb: 3, usage_percent: 37.5 },
          disk: { total_gb: 100, used_gb: 40, usage_percent: 40 },
          filesystems: [{ mount: '/', fs: '/dev/sda1', type: 'ext4', size: 1e11, used: 4e10, usage_percent: 40 }],
        },
        network: [{ interface: 'eth0', rx_bytes_per_second: 50_000, tx_bytes_per_second: 20_000 }],
        ...(withInventory
          ? {
              system: {
                hostname: 'web-1.internal',
                platform: 'linux',
                os: 'Debian 12',
                architecture: 'x64',
                cpu_model: 'Test CPU',
                cpu_cores: 4,
                total_memory: 8 * 1024 ** 3,
                total_disk: 100 * 1024 ** 3,
                agent_version: '0.1.0',
                uptime_seconds: 86_400,
              },
              processes: [
                {
                  pid: 4242,
                  name: 'nginx-worker',
                  command: 'nginx: worker process',
                  cpu_percent: 12.5,
                  memory_mb: 64,
                  status: 'running',
                  user: 'www-data',
                },
              ],
              applications: [
                {
                  name: 'openssl',
                  version: '3.0.15',
                  publisher: 'Debian',
                  install_path: '/usr',
                  size: 2_000_000,
                  is_running: false,
                },
              ],
              connections: [
                {
                  local_address: '0.0.0.0',
                  local_port: 443,
                  remote_address: null,
                  remote_port: null,
                  protocol: 'tcp',
                  status: 'LISTEN',
                  process_name: 'nginx',
                },
              ],
            }
          : {}),
      },
      token,
    )

  /** Opens `path` in the signed-in page and waits for its heading. */
  const open = async (path: string) => {
    await page.goto(new URL(path, base).toString())
    try {
      await page.locator('main h1').first().waitFor({ timeout: 15_000 })
    } catch (error) {
      throw new Error(`${path} showed no heading: ${await page.locator('body').innerText()}`, { cause: error })
    }
  }

  const check = async (name: string) => {
    expect(await seriousViolations(page)).toEqual([])
    await shot(page, name)
  }

  beforeAll(async () => {
    guard = await startGuardForConsole({ GUARD_STATUS_PAGE_CACHE_SECONDS: '0' })
    base = guard.collectorUrl
    apiKey = guard.apiKey

    const device = await rest<{ id: string; token: string }>('POST', '/api/devices', { name: 'web-1', tags: ['prod'] })
    seeded.device = device.id
    const now = Date.now()
    for (const [index, ago] of [240, 180, 120, 60, 1].entries()) {
      await heartbeat(device.id, device.token, new Date(now - ago * 1000), index === 4)
    }
    const domain = await rest<{ id: string }>('POST', '/api/domains', {
      url: `${base}/api/health`,
      name: 'Collector health',
      checkInterval: 60,
    })
    seeded.domain = domain.id
    const statusPage = await rest<{ id: string }>('POST', '/api/status-pages', {
      name: 'Acme status',
      slug: 'acme-status',
      description: 'Everything Acme runs',
      isPublic: true,
    })
    seeded.statusPage = statusPage.id
    await rest('POST', `/api/status-pages/${statusPage.id}/domains`, { domainId: domain.id, displayName: 'Website' })
    await rest('POST', `/api/status-pages/${statusPage.id}/devices`, { deviceId: device.id })
    const incident = await rest<{ id: string }>('POST', '/api/incidents', {
      title: 'Checkout is slow',
      description: 'Payments take 10 s',
      severity: 'high',
    })
    seeded.incident = incident.id
    await eventually(
      async () =>
        (await rest<Array<{ processes?: unknown }>>('GET', `/api/devices/${device.id}/processes`)).length > 0 ||
        undefined,
      'the inventory to be stored',
    )

    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('lists devices with their state and enrols one, showing the token and the install command once', async () => {
    await open('/devices')
    const row = page.getByRole('row', { name: /web-1/ })
    await expect.poll(() => row.textContent()).toMatch(/Online/)
    expect(await row.textContent()).toMatch(/healthy/)
    await check('devices')

    await page.getByRole('button', { name: 'Enrol a device' }).click()
    await page.getByLabel('Name').fill('db-1')
    await page.getByRole('button', { name: 'Enrol', exact: true }).click()
    const token = page.getByRole('region', { name: 'Agent token', exact: true }).locator('pre')
    await token.waitFor()
    expect(await token.textContent()).toMatch(/^gdt_/)
    expect(
      await page.getByRole('region', { name: 'Install command', exact: true }).locator('pre').textContent(),
    ).toMatch(/"collectorUrl": "http/)
    await check('devices-enrol')
    await page.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => page.getByRole('row', { name: /db-1/ }).count()).toBe(1)
  })

  it("shows a device's metric charts and its processes, applications and connections", async () => {
    await open(`/devices/${seeded.device}`)
    await expect.poll(() => page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(4)
    await page.getByRole('cell', { name: 'nginx-worker' }).waitFor()
    expect(await page.locator('dl.facts').textContent()).toContain('web-1.internal')
    await check('device-detail')
    // The inventory tabs work from the keyboard: → moves to the next tab and shows it.
    await page.getByRole('tab', { name: /Processes/ }).focus()
    await page.keyboard.press('ArrowRight')
    await page.getByRole('cell', { name: 'openssl' }).waitFor()
    expect(await page.evaluate('document.activeElement.textContent')).toMatch(/Applications/)
    await page.getByRole('tab', { name: /Connections/ }).click()
    await page.getByRole('cell', { name: '0.0.0.0:443' }).waitFor()

    // A refused save shows the API's words and keeps what was typed.
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByLabel('CPU warning at').fill('95')
    await page.getByLabel('CPU critical at').fill('90')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('dialog .error', { hasText: 'warning must be below critical' }).waitFor()
    expect(await page.getByLabel('CPU warning at').inputValue()).toBe('95')
    await page.getByLabel('CPU warning at').fill('70')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('dialog[open]').waitFor({ state: 'detached' })
    await expect
      .poll(
        async () =>
          (await rest<{ thresholds: { cpu: { warning: number } } }>('GET', `/api/devices/${seeded.device}`)).thresholds
            .cpu.warning,
      )
      .toBe(70)
  })

  it('lists incidents with filters, and acknowledges, updates and resolves one on its timeline', async () => {
    await open('/incidents')
    await page.getByRole('link', { name: 'Checkout is slow' }).waitFor()
    await page.getByLabel('Status').selectOption('resolved')
    await page.getByText('No incident matches these filters').waitFor()
    await page.getByLabel('Status').selectOption('')
    await check('incidents')

    await page.getByRole('link', { name: 'Checkout is slow' }).click()
    await page.getByRole('button', { name: 'Acknowledge' }).click()
    await page.locator('.page-head .badge', { hasText: 'Acknowledged' }).waitFor()
    await page.getByLabel('Message').fill('Found the slow query; deploying a fix')
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.locator('.timeline', { hasText: 'Found the slow query' }).waitFor()
    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.locator('.page-head .badge', { hasText: 'Resolved' }).waitFor()
    // Authors read as people, not principal ids.
    expect(await page.locator('.timeline').textContent()).not.toMatch(/user:|api_key:/)
    await check('incident-detail')
  })

  it('lists status pages and edits one with its components and a live preview', async () => {
    await open('/status-pages')
    await page.getByRole('link', { name: 'Acme status' }).waitFor()
    await check('status-pages')
    // The slug comes from the name; a taken one is refused in words and nothing typed is lost.
    await page.getByRole('button', { name: 'New status page' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Acme Status')
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('acme-status')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page.locator('dialog .error').waitFor()
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Acme Status')
    await page.getByLabel('Slug', { exact: true }).fill('acme-status-eu')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page.getByRole('heading', { name: 'Acme Status', exact: true, level: 1 }).waitFor()
    expect(page.url()).toMatch(/\/status-pages\/[^/]+$/)
    await open(`/status-pages/${seeded.statusPage}`)
    const components = page.locator('ol.components li')
    await expect.poll(() => components.count()).toBe(2)
    expect(await components.first().textContent()).toContain('Website')
    await page.getByRole('button', { name: 'Move web-1 up' }).click()
    await expect.poll(() => components.first().textContent()).toContain('web-1')
    const preview = page.frameLocator('iframe.preview-frame')
    await preview.getByText('Acme status').first().waitFor()
    await check('status-page-editor')
  })

  it('shows new notifications in the feed with the unread count, marks them read, and has channels and a delivery log', async () => {
    // The first read of the feed makes the signed-in user a recipient; the incident after it notifies them.
    await open('/notifications')
    await page
      .locator('main .unread-count')
      .getByText(/\d+ unread/)
      .waitFor()
    await rest('POST', '/api/incidents', { title: 'Disk almost full on db-1', severity: 'critical' })
    // Live: no reload, no navigation; the feed grows from the event stream.
    const item = page.locator('.feed li', { hasText: 'Disk almost full on db-1' })
    await item.waitFor({ timeout: 20_000 })
    const unread = async () => Number((await page.locator('main .unread-count strong').textContent()) ?? 'NaN')
    const before = await unread()
    expect(before).toBeGreaterThanOrEqual(1)
    await check('notifications')
    await item.getByRole('button', { name: 'Mark read' }).click()
    await expect.poll(unread).toBe(before - 1)

    await page.getByRole('tab', { name: 'Channels' }).click()
    await page.getByRole('button', { name: 'Send a test' }).click()
    await page.getByText(/Test queued|No channel is configured/).waitFor()
    await check('notifications-channels')
    await page.getByRole('tab', { name: 'Delivery log' }).click()
    await page.locator('[role=tabpanel]').getByRole('button', { name: 'Refresh' }).waitFor()
    await check('notifications-deliveries')
  })

  it('lists API keys, shows a new key once and revokes it', async () => {
    await open('/keys')
    await page.locator('main table, main .error').first().waitFor()
    expect(await page.locator('main .error').count(), await page.locator('main').innerText()).toBe(0)
    await page.getByRole('button', { name: 'Create a key' }).click()
    await page.getByLabel('Name', { exact: true }).fill('ci deploy')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = page.getByLabel('API key', { exact: true })
    await key.waitFor()
    const secret = await key.inputValue()
    expect(secret).toMatch(/^guard_/)
    const devices = await fetch(new URL('/api/devices', base), { headers: { authorization: `Bearer ${secret}` } })
    expect(devices.status).toBe(200)
    await check('api-keys-created')
    await page.getByRole('button', { name: 'Done' }).click()
    const row = page.getByRole('row', { name: /ci deploy/ })
    await row.waitFor()
    expect(await row.textContent()).not.toContain(secret)
    await check('api-keys')
    await row.getByRole('button', { name: 'Revoke ci deploy' }).click()
    await page.getByRole('button', { name: 'Revoke key' }).click()
    await expect.poll(() => row.count()).toBe(0)
  })

  it('links a Coolify (selfhost-b) instance, lists what it hosts and monitors one of them', async () => {
    // A stand-in for a self-hosted platform on 127.0.0.1, answering its REST API for one key.
    const platform = createServer((request, response) => {
      const answer = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(json))
      }
      if (request.headers.authorization !== 'Bearer sb-key-1') return answer(401, { message: 'Unauthenticated.' })
      if (request.url === '/api/v1/teams/current') return answer(200, { id: 0, name: 'Root Team' })
      if (request.url === '/api/v1/applications')
        return answer(200, [
          { uuid: 'app-1', name: 'website', fqdn: 'https://www.selfhost-b.example', status: 'running' },
        ])
      if (request.url === '/api/v1/servers') return answer(200, [])
      return answer(404, { message: 'Not found.' })
    })
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`
    try {
      await open('/integrations')
      for (const name of ['Microsoft Azure', 'Coolify', 'Vercel'])
        await page.getByRole('heading', { name, exact: true }).waitFor()
      await expect.poll(() => page.getByText('Nothing linked.').count()).toBe(3)
      await check('integrations')

      const card = page.locator('section.integration', { has: page.getByRole('heading', { name: 'Coolify' }) })
      await card.getByRole('button', { name: 'Link' }).click()
      await card.getByLabel('Name', { exact: true }).fill('Home lab')
      await card.getByLabel('Address').fill(url)
      await card.getByLabel('API key').fill('wrong-key')
      await card.getByRole('button', { name: 'Link', exact: true }).last().click()
      await card.locator('.error').waitFor()
      expect(await card.getByLabel('Address').inputValue()).toBe(url)
      await card.getByLabel('API key').fill('sb-key-1')
      await card.getByRole('button', { name: 'Link', exact: true }).last().click()
      await card.getByText('Home lab').waitFor()
      await card.getByRole('button', { name: 'Show resources' }).click()
      const row = card.getByRole('row', { name: /website/ })
      await row.getByRole('button', { name: 'Monitor' }).click()
      await row.getByRole('link', { name: 'Monitored' }).waitFor()
      await check('integrations-linked')
    } finally {
      platform.close()
    }
  })

  it('pauses, resumes and deletes a domain from its row in the list', async () => {
    const domain = await rest<{ id: string }>('POST', '/api/domains', {
      url: `${base}/api/health`,
      name: 'Row actions',
      checkInterval: 300,
    })
    await open('/domains?search=Row%20actions')
    const row = page.getByRole('row', { name: /Row actions/ })
    await row.getByRole('button', { name: 'Pause Row actions' }).click()
    await row.getByRole('button', { name: 'Resume Row actions' }).waitFor()
    await row.locator('.state-paused').waitFor()
    expect((await rest<{ enabled: boolean }>('GET', `/api/domains/${domain.id}`)).enabled).toBe(false)
    await check('domains-row-paused')
    await row.getByRole('button', { name: 'Resume Row actions' }).click()
    await row.getByRole('button', { name: 'Pause Row actions' }).waitFor()
    expect((await rest<{ enabled: boolean }>('GET', `/api/domains/${domain.id}`)).enabled).toBe(true)
    await row.getByRole('button', { name: 'Delete Row actions' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No domain matches').waitFor()
    expect(new URL(page.url()).pathname).toBe('/domains')
    const gone = await fetch(new URL(`/api/domains/${domain.id}`, base), {
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expect(gone.status).toBe(404)
  })

  it('scans ports of 127.0.0.1 with a progress bar that moves before the result', async () => {
    await open('/toolbox')
    // Records each value the bar shows and whether the result was on screen yet (browser code, as text).
    await page.evaluate(`{
      const bar = document.getElementById('scan-progress-bar')
      globalThis.progressSeen = []
      new MutationObserver(() =>
        globalThis.progressSeen.push({ value: bar.value, result: document.querySelector('.scan-result') !== null }),
      ).observe(bar, { attributes: true, attributeFilter: ['value'] })
    }`)
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1')
    // The full range: on an idle machine 3,000 loopback ports finish before the first 250 ms progress tick.
    await page.getByLabel('Ports', { exact: true }).selectOption('full')
    await page.getByRole('button', { name: 'Scan' }).click()
    await page.locator('.scan-result, main .error').first().waitFor({ timeout: 60_000 })
    expect(
      await page.locator('main .error').count(),
      await page.locator('main .error').allInnerTexts().then(String),
    ).toBe(0)
    const seen = (await page.evaluate('globalThis.progressSeen')) as Array<{ value: number; result: boolean }>
    expect(seen.some((entry) => entry.value > 0 && entry.value < 100 && !entry.result)).toBe(true)
    expect(await page.locator('.scan-result').textContent()).toMatch(/open of 65535 scanned/)
    await check('toolbox')
  }, 90_000)

  it('is usable at 360 px wide and in the dark colour scheme', async () => {
    await page.setViewportSize({ width: 360, height: 740 })
    for (const [name, path] of [
      ['devices', '/devices'],
      ['incident-detail', `/incidents/${seeded.incident}`],
      ['status-page-editor', `/status-pages/${seeded.statusPage}`],
      ['toolbox', '/toolbox'],
    ]) {
      await open(path!)
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - innerWidth')) as number
      expect(overflow, path).toBeLessThanOrEqual(0)
      await shot(page, `${name}-360`)
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.emulateMedia({ colorScheme: 'dark' })
    await open(`/devices/${seeded.device}`)
    await page.getByRole('cell', { name: 'nginx-worker' }).waitFor()
    await check('device-detail-dark')
    await open(`/incidents/${seeded.incident}`)
    await page.locator('.timeline').waitFor()
    await check('incident-detail-dark')
  })

  describe('the latency chart', () => {
    const HOUR = 3600
    const RANGES = { '24h': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR, '90d': 90 * 24 * HOUR } as const
    /** The chart's colours for its first two series, in location order (components/chart.tsx). */
    const COLOURS = { fra: [0x2f, 0x6f, 0xdf], iad: [0xd9, 0x48, 0x0f] } as const
    let domainId: string
    /**
     * What it draws depends on checks at given times (one lone check, two locations out of step),
     * which a live probe cannot be made to produce: the test answers the chart's two reads.
     */
    let points: Record<string, Array<{ timestamp: string; status: string; responseTime: number }>> = {}

    /** The rollup buckets the chart asks for first: as few checks as `points`, so it asks for those raw. */
    const answerLatency = (route: Route) =>
      route.fulfill({
        json: {
          success: true,
          data: {
            range: '24h',
            step: 300,
            locations: Object.fromEntries(
              Object.entries(points).map(([location, list]) => [
                location,
                list.map((point) => ({
                  timestamp: point.timestamp,
                  checks: 1,
                  failures: 0,
                  responseTime: point.responseTime,
                  minResponseTime: point.responseTime,
                  maxResponseTime: point.responseTime,
                  p95ResponseTime: point.responseTime,
                })),
              ]),
            ),
          },
        },
      })
    const answerRaw = (route: Route) => route.fulfill({ json: { success: true, data: points } })
    const isLatency = (url: URL) => url.pathname === `/api/domains/${domainId}/monitoring/latency`
    const isRaw = (url: URL) => url.pathname === `/api/domains/${domainId}/monitoring/locations`

    beforeAll(async () => {
      domainId = (await rest<{ id: string }>('POST', '/api/domains', { url: 'https://charts.example', name: 'Charts' }))
        .id
      await rest('PUT', `/api/domains/${domainId}`, { enabled: false })
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.route(isLatency, answerLatency)
      await page.route(isRaw, answerRaw)
    })
    afterAll(async () => {
      await page.unroute(isLatency, answerLatency)
      await page.unroute(isRaw, answerRaw)
    })

    /** The x range uPlot drew, in seconds. */
    const xRange = async () => {
      const chart = page.locator('.chart[data-x-range]')
      await chart.waitFor({ timeout: 15_000 })
      const [min, max] = ((await chart.getAttribute('data-x-range')) ?? '').split(' ').map(Number)
      return { min: min!, max: max!, width: max! - min! }
    }

    /** The part of a canvas the test reads (the test project has no DOM types). */
    interface Canvas {
      width: number
      height: number
      getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } }
    }

    /** Pixel columns of the canvas holding the colour: a line covers its span, lone dots a few columns. */
    const share = (colour: readonly number[]) =>
      page.locator('.chart canvas').evaluate((element, rgb) => {
        const canvas = element as unknown as Canvas
        const { width, height } = canvas
        const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data
        const columns = new Set<number>()
        for (let offset = 0; offset < pixels.length; offset += 4) {
          const distance =
            Math.abs(pixels[offset]! - rgb[0]!) +
            Math.abs(pixels[offset + 1]! - rgb[1]!) +
            Math.abs(pixels[offset + 2]! - rgb[2]!)
          if (distance < 60 && pixels[offset + 3]! > 200) columns.add((offset / 4) % width)
        }
        return columns.size / width
      }, colour)

    /** The window ends when the chart's data came, between `since` and now. */
    const expectWindow = async (seconds: number, since: number) => {
      await expect.poll(async () => (await xRange()).width).toBe(seconds)
      const { max } = await xRange()
      expect(max).toBeGreaterThanOrEqual(Math.floor(since / 1000) - 1)
      expect(max).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 1)
    }

    it('spans the chosen window with a single check at 24 h, 7 d, 30 d and 90 d, with no legend debris', async () => {
      points = { fra: [{ timestamp: new Date(Date.now() - 600_000).toISOString(), status: 'up', responseTime: 120 }] }
      const openedAt = Date.now()
      await open(`/domains/${domainId}`)
      await expectWindow(RANGES['24h'], openedAt)
      // The lone check is drawn (as uPlot's point).
      await expect.poll(() => share(COLOURS.fra)).toBeGreaterThan(0)
      const legend = await page.locator('.chart .u-legend').innerText()
      expect(legend).not.toMatch(/--|time/i)
      expect(legend).toMatch(/fra/i)
      await shot(page, 'chart-one-check')
      for (const range of ['7d', '30d', '90d'] as const) {
        const clickedAt = Date.now()
        await page.getByRole('button', { name: range, exact: true }).click()
        await expectWindow(RANGES[range], clickedAt)
      }
    })

    it('draws one line per location across checks that do not line up', async () => {
      const now = Date.now()
      // Every two hours at fra, on the hours between at iad: no timestamp is shared.
      const every = (first: number, base: number, slope: number) =>
        Array.from({ length: 11 }, (_, index) => ({
          timestamp: new Date(now - (first - 2 * index) * HOUR * 1000).toISOString(),
          status: 'up',
          responseTime: base + slope * index,
        }))
      points = { fra: every(22, 100, 5), iad: every(21, 300, -5) }
      await open(`/domains/${domainId}`)
      await expectWindow(RANGES['24h'], now)
      // The checks span 20 of the 24 hours: a line covers most columns, 11 dots a few dozen.
      for (const colour of [COLOURS.fra, COLOURS.iad]) await expect.poll(() => share(colour)).toBeGreaterThan(0.6)
      await shot(page, 'chart-two-locations')
    })
  })
})
