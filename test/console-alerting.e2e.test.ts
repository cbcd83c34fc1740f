import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CHROMIUM,
  type ConsoleGuard,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  signInToConsole,
  startGuardForConsole,
} from './support/console-browser.ts'

/** One screenshot and one accessibility check per screen. */
const check = async (page: Page, name: string) => {
  await saveScreenshot(page, `console/alerting-${name}`)
  expect(await seriousViolations(page)).toEqual([])
}

describe.skipIf(!CHROMIUM)('the console alerting screens, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page
  let receiver: Server
  let receiverUrl: string
  /** The alert kinds the local webhook receiver was sent, in order. */
  const received: string[] = []

  const rest = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, guard.collectorUrl), {
      method,
      headers: {
        authorization: `Bearer ${guard.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await response.json()) as { data: T }
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json.data
  }

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk: Buffer) => {
        text += chunk.toString()
      })
      request.on('end', () => {
        received.push((JSON.parse(text) as { alert: { kind: string } }).alert.kind)
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/guard`
    guard = await startGuardForConsole({ GUARD_DELIVERY_POLL_MS: '200', GUARD_ESCALATION_POLL_MS: '500' })
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
    receiver?.closeAllConnections()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  it('creates a webhook channel, shows its signing secret once, and tests it with the service verdict', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerting' }).click()
    await page.getByRole('button', { name: 'Add a channel' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a channel' })
    await dialog.getByLabel('Name', { exact: true }).fill('Ops webhook')
    // The fields come from the provider's JSON Schema: an enum is a select, a record one entry a line.
    await dialog.getByLabel('Provider').selectOption('templated-webhook')
    await dialog.getByLabel('Method').selectOption('PUT')
    await dialog.getByRole('textbox', { name: 'Secret headers' }).waitFor()
    await dialog.getByLabel('Provider').selectOption('webhook')
    await dialog.getByLabel('URL', { exact: true }).fill(receiverUrl)
    expect(await dialog.getByLabel('Secret', { exact: true }).getAttribute('type')).toBe('password')
    await check(page, 'channel-form')
    await dialog.getByRole('button', { name: 'Create channel' }).click()

    const created = page.getByRole('dialog', { name: 'Channel created' })
    expect(await created.getByRole('textbox', { name: 'Secret' }).inputValue()).toMatch(/^whsec_/)
    await created.getByRole('button', { name: 'Done' }).click()

    const table = page.getByRole('table', { name: 'Notification channels' })
    await table.getByRole('cell', { name: 'Ops webhook', exact: true }).waitFor()
    await table.getByRole('button', { name: 'Test Ops webhook' }).click()
    await page.getByRole('status').filter({ hasText: 'Test sent to Ops webhook: the service accepted it' }).waitFor()
    expect(received).toContain('test')
    await table.getByText('delivered').waitFor()

    // Editing keeps the stored secret: the form says it is set and leaves it out.
    await table.getByRole('button', { name: 'Edit Ops webhook' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Ops webhook' })
    await edit.getByText('Set: leave empty to keep the stored value.').waitFor()
    await edit.getByRole('button', { name: 'Save channel' }).click()
    await edit.waitFor({ state: 'detached' })
    await check(page, 'channels')
  })

  it('creates an escalation policy and a route that uses it, listed before the default route', async () => {
    await page.getByRole('navigation', { name: 'Alerting' }).getByRole('link', { name: 'Escalation policies' }).click()
    await page.getByRole('button', { name: 'Add a policy' }).click()
    const policy = page.getByRole('dialog', { name: 'Add an escalation policy' })
    await policy.getByLabel('Policy name').fill('Wake the lead')
    // Far enough away that no step fires before the test acknowledges.
    await policy.getByLabel('Step 1: after (minutes)').fill('30')
    await policy.getByRole('group', { name: 'Step 1: channels' }).getByLabel('Ops webhook').check()
    await policy.getByRole('button', { name: 'Create policy' }).click()
    await page.getByRole('list', { name: 'Escalation policies' }).getByText('after 30 min → Ops webhook').waitFor()
    await check(page, 'policies')

    await page.getByRole('navigation', { name: 'Alerting' }).getByRole('link', { name: 'Routing' }).click()
    await page.getByRole('button', { name: 'Add a route' }).click()
    const route = page.getByRole('dialog', { name: 'Add a route' })
    await route.getByLabel('Route name').fill('Critical to the lead')
    await route.getByRole('group', { name: 'Severities' }).getByLabel('Critical').check()
    await route.getByRole('group', { name: 'Channels' }).getByLabel('Ops webhook').check()
    await route.getByLabel('Escalation policy').selectOption({ label: 'Wake the lead' })
    await route.getByRole('button', { name: 'Create route' }).click()
    const routes = page.getByRole('list', { name: 'Routes, in the order they are tried' }).getByRole('listitem')
    await expect.poll(() => routes.count()).toBe(2)
    expect(await routes.first().textContent()).toContain('Critical to the lead')
    expect(await routes.first().textContent()).toContain('escalates by Wake the lead')
    expect(await routes.last().textContent()).toContain('default')
    await check(page, 'routes')
  })

  it('acknowledges an open incident, which stops its escalation, and shows the alerting timeline', async () => {
    const incident = await rest<{ id: string }>('POST', '/api/incidents', {
      title: 'Payments are failing',
      severity: 'critical',
    })
    await page.goto(`${guard.collectorUrl}/incidents/${incident.id}`)
    const alerting = page.getByRole('region', { name: 'Alerting' })
    await alerting.getByText(/Step 1 due/).waitFor()

    await page.getByRole('button', { name: 'Acknowledge' }).click()
    await page.locator('.page-head .badge', { hasText: 'Acknowledged' }).waitFor()
    await page.getByRole('button', { name: 'Acknowledge' }).waitFor({ state: 'detached' })
    await alerting.getByText('steps stopped').waitFor()
    const deliveries = alerting.getByRole('table', { name: 'Deliveries to channels' })
    await expect.poll(() => deliveries.getByRole('row').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
    await expect.poll(() => received, { timeout: 20_000 }).toContain('acknowledged')
    expect(received).toContain('opened')
    await check(page, 'incident')
  })
})
