import type { AddressInfo } from 'node:net'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { retryDelayMs, startDeliveryWorker } from '../services/notifications/deliver.ts'
import { listDeliveries } from '../services/notifications/list-deliveries.ts'
import { sendTestNotification } from '../services/notifications/send-test.ts'
import { updateNotificationSettings } from '../services/notifications/settings.ts'
import { sendWeeklyReports } from '../services/reports/weekly-email.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  eventsSettled,
  injectAsUser,
  startReactionsForTest,
  startReceiver,
  startSmtpSink,
  userCaller,
} from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('notifications API', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>
  let base: string
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, user = 'alice') =>
    injectAsUser(app, user, method, url, payload)
  const until = async <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> => {
    const deadline = Date.now() + 15_000
    for (;;) {
      const value = await probe()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpSink()
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_SMTP_URL: smtp.url,
      GUARD_DELIVERY_BASE_DELAY_MS: '50',
      GUARD_DELIVERY_POLL_MS: '50',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        bob: userCaller('bob', [ORG]),
      }),
    })
    reactions = await startReactionsForTest(harness.ctx)
    await app.listen({ host: '127.0.0.1', port: 0 })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
    await smtp.close()
  })

  it('starts with e-mail unticked until an address is given, and shows the webhook secret only once', async () => {
    const settings = (await call('GET', '/api/notifications/settings')).body.data
    expect(settings).toMatchObject({
      emailNotifications: false,
      email: null,
      browserNotifications: true,
      emailIncidents: true,
      emailDowntime: true,
      emailWeeklyReports: false,
      slackEnabled: false,
      webhookUrl: null,
      webhookSecretSet: false,
    })
    const receiver = await startReceiver()
    const first = (await call('PUT', '/api/notifications/settings', { webhookUrl: receiver.url })).body.data
    expect(first.webhookSecret).toMatch(/^whsec_/)
    const again = (await call('PUT', '/api/notifications/settings', { emailWeeklyReports: true })).body.data
    expect(again).toMatchObject({ webhookSecretSet: true, emailWeeklyReports: true })
    expect(again.webhookSecret).toBeUndefined()
    const { rows } = await harness.ctx.sql.query<{ sealed: string }>(
      'SELECT webhook_secret_sealed AS sealed FROM monitoring.notification_settings WHERE principal = $1',
      ['user:alice'],
    )
    expect(rows[0]!.sealed).not.toContain(first.webhookSecret.slice(6))
    const slack = (
      await call('PUT', '/api/notifications/settings', { slackWebhookUrl: `${receiver.url}/T000/B000/secret-token` })
    ).body.data
    expect(slack.slackWebhookUrl).toBe(`${receiver.url}/…`)
    const stored = await harness.ctx.sql.query<{ url: string }>(
      'SELECT slack_webhook_url AS url FROM monitoring.notification_settings WHERE principal = $1',
      ['user:alice'],
    )
    expect(stored.rows[0]!.url).not.toContain('secret-token')
    await call('PUT', '/api/notifications/settings', { slackWebhookUrl: null })
    const rotated = (await call('PUT', '/api/notifications/settings', { rotateWebhookSecret: true })).body.data
    expect(rotated.webhookSecret).not.toBe(first.webhookSecret)

    // The test message goes through the configured channels; its signature verifies with the new secret.
    await call('PUT', '/api/notifications/settings', { email: 'alice@example.org' })
    const test = await call('POST', '/api/notifications/test')
    expect(test.status).toBe(202)
    expect(test.body.data.channels.sort()).toEqual(['email', 'webhook'])
    await until(async () => (receiver.received.length === 1 && smtp.messages.length === 1 ? true : undefined), 'test')
    const request = receiver.received[0]!
    expect(new Webhook(rotated.webhookSecret).verify(request.body, request.headers)).toMatchObject({
      type: 'notification.test',
    })
    const log = (await call('GET', '/api/notifications/deliveries?channel=webhook')).body.data
    expect(log).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1, lastStatusCode: 200 })])
    await receiver.close()
  })

  it('refuses receiver URLs outside https or inside the private network when the operator does not allow them', async () => {
    const strict = await collectorForTest()
    const strictApp = await buildCollectorApp(strict.ctx, {
      authenticate: authenticateWithUsers(strict.ctx, { alice: userCaller('alice', [ORG]) }),
    })
    const put = (payload: object) =>
      strictApp.inject({
        method: 'PUT',
        url: '/api/notifications/settings',
        headers: { authorization: 'Bearer user:alice' },
        payload,
      })
    expect((await put({ webhookUrl: 'http://hooks.example.org/x' })).statusCode).toBe(400)
    expect((await put({ webhookUrl: 'https://127.0.0.1/x' })).statusCode).toBe(422)
    expect((await put({ slackWebhookUrl: 'https://169.254.169.254/latest' })).statusCode).toBe(422)
    expect((await put({ webhookUrl: 'https://[::1]/x' })).statusCode).toBe(422)
    await strictApp.close()
    await strict.close()
  })

  it('lists newest first with the unread count, marks one or all read, and never someone else’s', async () => {
    await call('GET', '/api/notifications', undefined, 'bob')
    for (const title of ['first', 'second', 'third']) await call('POST', '/api/incidents', { title })
    await eventsSettled(harness.ctx)
    const inbox = (await call('GET', '/api/notifications?limit=2', undefined, 'bob')).body
    expect(inbox.unreadCount).toBe(3)
    expect(inbox.data.map((n: { message: string }) => n.message)).toEqual([
      'Incident opened: third: Incident reported: third',
      'Incident opened: second: Incident reported: second',
    ])
    expect((await call('PUT', `/api/notifications/${inbox.data[0].id}/read`, undefined, 'alice')).status).toBe(404)
    expect((await call('PUT', `/api/notifications/${inbox.data[0].id}/read`, undefined, 'bob')).status).toBe(200)
    expect((await call('GET', '/api/notifications', undefined, 'bob')).body.unreadCount).toBe(2)
    expect((await call('PUT', '/api/notifications/read-all', undefined, 'bob')).body.data).toEqual({ marked: 2 })
    expect((await call('GET', '/api/notifications?unreadOnly=true', undefined, 'bob')).body.data).toEqual([])
  })

  it('streams new notifications over server-sent events and replays the missed ones after Last-Event-ID', async () => {
    const before = (await call('GET', '/api/notifications?limit=1', undefined, 'bob')).body.data[0].id
    const controller = new AbortController()
    const response = await fetch(`${base}/api/notifications/stream?maxSeconds=30`, {
      headers: { authorization: 'Bearer user:bob', 'last-event-id': before },
      signal: controller.signal,
    })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = response.body!.getReader()
    await call('POST', '/api/incidents', { title: 'live one' })
    let text = ''
    while (!text.includes('live one')) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    controller.abort()
    const events = text
      .split('\n\n')
      .filter((chunk) => chunk.includes('event: notification'))
      .map((chunk) =>
        JSON.parse(
          chunk
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6),
        ),
      )
    expect(events.at(-1)).toMatchObject({ type: 'warning', isRead: false, eventType: 'incident.opened' })
    expect(events.at(-1).message).toContain('live one')
  })

  it('sends the weekly report once per week whatever the number of replicas', async () => {
    const monday = new Date('2030-01-07T08:00:00Z')
    const queued = await Promise.all([sendWeeklyReports(harness.ctx, monday), sendWeeklyReports(harness.ctx, monday)])
    expect(queued.sort()).toEqual([0, 1])
    await until(
      async () => (smtp.messages.some((m) => m.raw.includes('Weekly report 2030-W02')) ? true : undefined),
      'report',
    )
    expect(smtp.messages.filter((m) => m.raw.includes('Weekly report'))).toHaveLength(1)
    expect(await sendWeeklyReports(harness.ctx, new Date('2030-01-14T08:00:00Z'))).toBe(1)
  })

  it('marks a delivery failed once retrying would pass its maximum age, with every attempt logged', async () => {
    const giveUp = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_DELIVERY_BASE_DELAY_MS: '100',
      GUARD_DELIVERY_POLL_MS: '50',
      GUARD_DELIVERY_MAX_AGE_SECONDS: '1',
    })
    const failing = await startReceiver([500])
    const caller = userCaller('carol', [ORG])
    await updateNotificationSettings(giveUp.ctx, caller, { webhookUrl: failing.url })
    const worker = startDeliveryWorker(giveUp.ctx)
    await sendTestNotification(giveUp.ctx, caller)
    const [delivery] = await until(async () => {
      const log = await listDeliveries(giveUp.ctx, caller, {})
      return log[0]?.status === 'failed' ? log : undefined
    }, 'a failed delivery')
    expect(delivery!.attempts).toBeGreaterThanOrEqual(2)
    expect(delivery!.log).toHaveLength(delivery!.attempts)
    expect(delivery!.log.every((attempt) => attempt.statusCode === 500)).toBe(true)
    expect(failing.received).toHaveLength(delivery!.attempts)
    await worker.stop()
    await failing.close()
    await giveUp.close()
  })

  it('backs off exponentially with jitter, up to the cap', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000, 5000, () => 0))).toEqual([500, 1000, 2000, 2500])
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000, 5000, () => 1))).toEqual([1000, 2000, 4000, 5000])
  })
})
