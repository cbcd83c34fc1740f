import { createServer } from 'node:net'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import {
  collectorForTest,
  eventsSettled,
  mailHeader,
  mailLinks,
  startReactionsForTest,
  startSmtpSink,
  waitUntil,
} from '../collector/src/test-support.ts'
import { CHROMIUM, launchChromium } from './support/console-browser.ts'
import { axeViolations } from './support/status-page-browser.ts'

const ORG = DEFAULT_ORGANIZATION.id

/** A port free right now: the collector's public URL (the links of its mails) must be known before it starts. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

describe.skipIf(!CHROMIUM)('status page subscribers in headless Chromium', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>
  let browser: Browser
  let base: string
  let shop: string
  let api: string
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const post = async (url: string, payload: Record<string, unknown>) =>
    (await app.inject({ method: 'POST', url, headers: headers(), payload })).json().data
  const mailsTo = (address: string) => smtp.messages.filter((message) => message.to.includes(address))

  beforeAll(async () => {
    smtp = await startSmtpSink()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    harness = await collectorForTest({
      GUARD_SMTP_URL: smtp.url,
      GUARD_PUBLIC_URL: base,
      GUARD_STATUS_PAGE_CACHE_SECONDS: '0',
      GUARD_DELIVERY_BASE_DELAY_MS: '50',
      GUARD_DELIVERY_POLL_MS: '50',
    })
    app = await buildCollectorApp(harness.ctx)
    reactions = await startReactionsForTest(harness.ctx)
    shop = (await post('/api/domains', { url: 'https://shop.example', name: 'Shop' })).id
    api = (await post('/api/domains', { url: 'https://api.example', name: 'API' })).id
    const page = await post('/api/status-pages', { name: 'Acme status', slug: 'acme', isPublic: true })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: api })
    await app.listen({ port, host: '127.0.0.1' })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await reactions?.stop()
    await harness?.close()
    await smtp?.close()
  })

  /** Subscribes through the page's form, optionally ticking components, and follows the mailed link. */
  async function subscribeInBrowser(email: string, components: string[] = []) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/status/acme`)
    await page.getByLabel('E-mail address').fill(email)
    if (components.length > 0) {
      await page.locator('.subscribe summary').click()
      for (const name of components) await page.getByLabel(name, { exact: true }).check()
    }
    await page.getByRole('button', { name: 'Subscribe' }).click()
    await expect.poll(() => page.locator('main').textContent()).toContain('confirmation link is on its way')
    await waitUntil(() => mailsTo(email).length === 1, `the confirmation mail to ${email}`)
    const link = mailLinks(mailsTo(email)[0]!.raw).find((each) => each.includes('/confirm?'))!
    expect(link.startsWith(`${base}/status/acme/confirm?token=`)).toBe(true)
    await page.goto(link)
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect.poll(() => page.locator('h1').textContent()).toBe('Subscription confirmed')
    await context.close()
  }

  it('subscribes from the page, confirms by the mailed link, gets one mail per update and unsubscribes in one click', async () => {
    const context = await browser.newContext({ bypassCSP: true })
    const page = await context.newPage()
    await page.goto(`${base}/status/acme`)
    expect(await axeViolations(page)).toEqual([])
    await context.close()

    const incident = await post('/api/incidents', { title: 'Checkout errors', affectedDomains: [shop] })
    await eventsSettled(harness.ctx)
    const email = 'visitor@example.org'
    await subscribeInBrowser(email)
    await post(`/api/incidents/${incident.id}/updates`, { message: 'A fix is deployed', status: 'monitoring' })
    await eventsSettled(harness.ctx)
    await waitUntil(() => mailsTo(email).length === 2, 'the update mail')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailsTo(email)).toHaveLength(2)
    const mail = mailsTo(email)[1]!.raw
    expect(mail).toContain('A fix is deployed')
    expect(mailHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    const unsubscribe = mailHeader(mail, 'List-Unsubscribe')!.replace(/^<|>$/g, '')
    // What a mail client does (RFC 8058): a POST without cookies or redirects, the body fixed.
    const answer = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    })
    expect(answer.status).toBe(200)
    await post(`/api/incidents/${incident.id}/updates`, { message: 'Still watching', status: 'monitoring' })
    await eventsSettled(harness.ctx)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailsTo(email)).toHaveLength(2)
  }, 60_000)

  it('sends a subscriber who ticked one component only that component', async () => {
    const email = 'api-watcher@example.org'
    await subscribeInBrowser(email, ['API'])
    await post('/api/incidents', { title: 'Shop is down', affectedDomains: [shop] })
    await post('/api/incidents', { title: 'API is slow', affectedDomains: [api] })
    await eventsSettled(harness.ctx)
    await waitUntil(() => mailsTo(email).length === 2, 'the API incident mail')
    await new Promise((resolve) => setTimeout(resolve, 300))
    const received = mailsTo(email).slice(1)
    expect(received).toHaveLength(1)
    expect(received[0]!.raw).toContain('API is slow')
    const { rows } = await harness.ctx.sql.query<{ organization_id: string }>(
      'SELECT organization_id FROM monitoring.status_page_subscribers WHERE target = $1',
      [email],
    )
    expect(rows).toEqual([{ organization_id: ORG }])
  }, 60_000)
})
