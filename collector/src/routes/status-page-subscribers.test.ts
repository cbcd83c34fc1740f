import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { publishStagedEvents } from '../services/events/publish.ts'
import { stageIncidentEvent } from '../services/incidents/events.ts'
import { INCIDENT_COLUMNS, type IncidentRow } from '../services/incidents/find.ts'
import { announceMaintenance } from '../services/status-pages/subscribers/announce-maintenance.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  eventsSettled,
  injectAsUser,
  mailHeader,
  mailLinks,
  startReactionsForTest,
  startReceiver,
  startSmtpSink,
  userCaller,
  waitUntil,
} from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id
const PUBLIC_URL = 'http://status.test'

describe('status page subscribers', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>
  let page: { id: string; components: Array<{ id: string; subjectId: string }> }
  let shop: string
  let api: string
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    injectAsUser(app, 'alice', method, url, payload)
  const subscribe = (payload: object, slug = 'acme-status', ip = '127.0.0.9') =>
    app.inject({ method: 'POST', url: `/api/status-pages/${slug}/subscribe`, payload, remoteAddress: ip })
  /** A link of a mail, followed inside the app (its host is the public URL). */
  const follow = (link: string, method: 'GET' | 'POST', payload?: string) =>
    app.inject({
      method,
      url: link.slice(PUBLIC_URL.length),
      ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    })
  const mailsTo = (address: string) => smtp.messages.filter((message) => message.to.includes(address))
  const postUpdate = async (incident: string, message: string, extra: object = {}) => {
    const response = await call('POST', `/api/incidents/${incident}/updates`, {
      message,
      status: 'monitoring',
      ...extra,
    })
    expect(response.status).toBe(201)
    await eventsSettled(harness.ctx)
  }
  const openIncident = async (title: string, domainId: string) => {
    const response = await call('POST', '/api/incidents', { title, affectedDomains: [domainId] })
    await eventsSettled(harness.ctx)
    return response.body.data.id as string
  }
  const subscribed = async (email: string, componentIds: string[] = []) => {
    expect((await subscribe({ email, componentIds })).statusCode).toBe(202)
    await waitUntil(() => mailsTo(email).length === 1, `confirmation to ${email}`)
    const confirm = mailLinks(mailsTo(email)[0]!.raw).find((link) => link.includes('/confirm?'))!
    expect((await follow(confirm, 'POST')).statusCode).toBe(200)
  }

  beforeAll(async () => {
    smtp = await startSmtpSink()
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_SMTP_URL: smtp.url,
      GUARD_PUBLIC_URL: PUBLIC_URL,
      GUARD_DELIVERY_BASE_DELAY_MS: '50',
      GUARD_DELIVERY_POLL_MS: '50',
      GUARD_SUBSCRIBE_MAX_PER_MINUTE: '1000',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        stranger: userCaller('stranger', ['org-stranger']),
      }),
    })
    reactions = await startReactionsForTest(harness.ctx)
    shop = (await call('POST', '/api/domains', { url: 'https://shop.example', name: 'Shop' })).body.data.id
    api = (await call('POST', '/api/domains', { url: 'https://api.example', name: 'API' })).body.data.id
    const created = (await call('POST', '/api/status-pages', { name: 'Acme', slug: 'acme-status', isPublic: true }))
      .body.data
    await call('POST', `/api/status-pages/${created.id}/domains`, { domainId: shop })
    page = (await call('POST', `/api/status-pages/${created.id}/domains`, { domainId: api })).body.data
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
    await smtp.close()
  })

  it('confirms by a single-use link, sends one mail per update with one-click unsubscribe headers, and stops after unsubscribing', async () => {
    const email = 'visitor@example.org'
    const first = await subscribe({ email })
    expect(first.statusCode).toBe(202)
    await waitUntil(() => mailsTo(email).length === 1, 'the confirmation mail')
    const confirm = mailLinks(mailsTo(email)[0]!.raw).find((link) => link.includes('/confirm?'))!
    expect(confirm.startsWith(`${PUBLIC_URL}/status/acme-status/confirm?token=`)).toBe(true)
    // Asking again answers the same and sends nothing more: nobody learns the address is known.
    const again = await subscribe({ email })
    expect(again.statusCode).toBe(202)
    expect(again.json()).toEqual(first.json())

    const shown = await follow(confirm, 'GET')
    expect(shown.statusCode).toBe(200)
    expect(shown.body).toContain('<form method="post">')
    expect((await call('GET', `/api/status-pages/${page.id}/subscribers`)).body.data).toEqual([
      expect.objectContaining({ target: email, confirmed: false }),
    ])
    expect((await follow(confirm, 'POST')).statusCode).toBe(200)
    expect((await follow(confirm, 'POST')).statusCode).toBe(404)
    expect((await follow(`${confirm.slice(0, -3)}AAA`, 'GET')).statusCode).toBe(404)

    const incident = await openIncident('Checkout is slow', shop)
    await waitUntil(() => mailsTo(email).length === 2, 'the opening mail')
    await postUpdate(incident, 'A fix is rolling out')
    await waitUntil(() => mailsTo(email).length === 3, 'the update mail')
    const mail = mailsTo(email)[2]!.raw
    expect(mail).toContain('A fix is rolling out')
    expect(mailHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    const unsubscribe = mailHeader(mail, 'List-Unsubscribe')!.replace(/^<|>$/g, '')
    expect(unsubscribe.startsWith(`${PUBLIC_URL}/status/acme-status/unsubscribe?token=`)).toBe(true)

    await postUpdate(incident, 'Not for subscribers', { notifySubscribers: false })
    const oneClick = await follow(unsubscribe, 'POST', 'List-Unsubscribe=One-Click')
    expect(oneClick.statusCode).toBe(200)
    expect((await call('GET', `/api/status-pages/${page.id}/subscribers`)).body.data).toEqual([])
    const { rows } = await harness.ctx.sql.query('SELECT 1 FROM monitoring.notification_deliveries WHERE target = $1', [
      email,
    ])
    expect(rows).toEqual([])
    await postUpdate(incident, 'After unsubscribing')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailsTo(email)).toHaveLength(3)
    expect(smtp.messages.some((message) => message.raw.includes('Not for subscribers'))).toBe(false)
  })

  it('sends a component-limited subscriber only its components', async () => {
    const apiComponent = page.components.find((component) => component.subjectId === api)!.id
    await subscribed('api-only@example.org', [apiComponent])
    await subscribed('everything@example.org')
    await openIncident('Shop checkout down', shop)
    await openIncident('API errors', api)
    await waitUntil(() => mailsTo('everything@example.org').length === 3, 'both openings to the whole-page subscriber')
    await waitUntil(() => mailsTo('api-only@example.org').length === 2, 'the API opening')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const received = mailsTo('api-only@example.org').map((message) => message.raw)
    expect(received.filter((raw) => raw.includes('API errors'))).toHaveLength(1)
    expect(received.some((raw) => raw.includes('Shop checkout down'))).toBe(false)
  })

  it('signs what a webhook subscriber receives with its own secret, shown once', async () => {
    const receiver = await startReceiver()
    try {
      const answer = await subscribe({ webhookUrl: receiver.url })
      expect(answer.statusCode).toBe(202)
      const { secret, unsubscribeUrl } = answer.json().data.webhook
      expect(secret).toMatch(/^whsec_/)
      const { rows } = await harness.ctx.sql.query<{ secret_sealed: string }>(
        "SELECT secret_sealed FROM monitoring.status_page_subscribers WHERE kind = 'webhook'",
      )
      expect(rows[0]!.secret_sealed).not.toContain(secret.slice(6))
      await openIncident('Payments delayed', api)
      await waitUntil(() => receiver.received.length === 1, 'the webhook')
      const request = receiver.received[0]!
      expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({
        type: 'status-page.incident.opened',
        data: { title: 'Payments delayed', pageName: 'Acme', unsubscribeUrl },
      })
      expect((await follow(unsubscribeUrl, 'POST')).statusCode).toBe(200)
    } finally {
      await receiver.close()
    }
  })

  it('announces a maintenance window within the notice hours once', async () => {
    await subscribed('maintenance@example.org')
    const startsAt = new Date(Date.now() + 2 * 3_600_000)
    await call('POST', '/api/maintenance-windows', {
      title: 'Database upgrade',
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
    })
    expect(
      (await call('PUT', `/api/status-pages/${page.id}/subscriber-settings`, { maintenanceNoticeHours: 1 })).body,
    ).toMatchObject({ data: { maintenanceNoticeHours: 1 } })
    expect(await announceMaintenance({ ctx: harness.ctx })).toBe(0)
    await call('PUT', `/api/status-pages/${page.id}/subscriber-settings`, { maintenanceNoticeHours: 24 })
    expect(await announceMaintenance({ ctx: harness.ctx })).toBeGreaterThan(0)
    expect(await announceMaintenance({ ctx: harness.ctx })).toBe(0)
    await waitUntil(
      () => mailsTo('maintenance@example.org').some((message) => message.raw.includes('Database upgrade')),
      'the maintenance notice',
    )
  })

  it('lets operators import, export as CSV and remove subscribers', async () => {
    const imported = await call('POST', `/api/status-pages/${page.id}/subscribers/import`, {
      emails: ['Imported@Example.org', 'imported@example.org', 'second@example.org'],
    })
    expect(imported.body.data).toEqual({ imported: 2, skipped: 0 })
    const csv = await app.inject({
      method: 'GET',
      url: `/api/status-pages/${page.id}/subscribers?format=csv`,
      headers: { authorization: 'Bearer user:alice' },
    })
    expect(csv.headers['content-disposition']).toContain('status-page-subscribers.csv')
    expect(csv.body.split('\n')[0]).toBe('id,kind,target,componentIds,confirmed,confirmedAt,createdAt')
    expect(csv.body).toContain('imported@example.org')
    const listed = (await call('GET', `/api/status-pages/${page.id}/subscribers`)).body.data as Array<{
      id: string
      target: string
    }>
    const second = listed.find((subscriber) => subscriber.target === 'second@example.org')!
    expect((await call('DELETE', `/api/status-pages/${page.id}/subscribers/${second.id}`)).status).toBe(200)
    expect((await call('DELETE', `/api/status-pages/${page.id}/subscribers/${second.id}`)).status).toBe(404)
    const stranger = await injectAsUser(app, 'stranger', 'GET', `/api/status-pages/${page.id}/subscribers`)
    expect(stranger.status).toBe(404)
  })

  it('forgets the addresses of a deleted page, queued messages included', async () => {
    const other = (await call('POST', '/api/status-pages', { name: 'Other', slug: 'other-status', isPublic: true }))
      .body.data
    await call('POST', `/api/status-pages/${other.id}/subscribers/import`, { emails: ['leaving@example.org'] })
    const [subscriber] = (await call('GET', `/api/status-pages/${other.id}/subscribers`)).body.data
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.notification_deliveries (id, organization_id, principal, event_id, event_type, channel,
         target, payload, give_up_at, next_attempt_at)
       VALUES ('queued-1', $1, $2, 'e-1', 'incident.updated', 'status-email', 'leaving@example.org', '{}',
               now() + interval '1 day', now() + interval '1 hour')`,
      [ORG, `subscriber:${subscriber.id}`],
    )
    expect((await call('DELETE', `/api/status-pages/${other.id}`)).status).toBe(200)
    const { rows } = await harness.ctx.sql.query(
      `SELECT 1 FROM monitoring.notification_deliveries WHERE target = 'leaving@example.org'
       UNION ALL SELECT 1 FROM monitoring.status_page_subscribers WHERE target = 'leaving@example.org'`,
    )
    expect(rows).toEqual([])
  })

  it('tells the subscribers of a page holding drafts once the incident is published, and no one twice', async () => {
    const held = (
      await call('POST', '/api/status-pages', {
        name: 'Held',
        slug: 'held-status',
        isPublic: true,
        automaticIncidents: 'draft',
      })
    ).body.data
    await call('POST', `/api/status-pages/${held.id}/domains`, { domainId: shop })
    expect((await subscribe({ email: 'held@example.org' }, 'held-status')).statusCode).toBe(202)
    await waitUntil(() => mailsTo('held@example.org').length === 1, 'the confirmation on the held page')
    const confirm = mailLinks(mailsTo('held@example.org')[0]!.raw).find((link) => link.includes('/confirm?'))!
    expect((await follow(confirm, 'POST')).statusCode).toBe(200)
    await subscribed('at-once@example.org')

    await harness.ctx.sql.query(
      `INSERT INTO monitoring.incidents
         (id, organization_id, title, status, severity, cause, monitor_id, monitor_kind, detected_at)
       VALUES ('automatic-1', $1, 'Shop is down: connect ECONNREFUSED 10.0.0.7:443', 'investigating', 'high', 'down', $2,
               'domain', now())`,
      [ORG, shop],
    )
    const [row] = (
      await harness.ctx.sql.query<IncidentRow>(`SELECT ${INCIDENT_COLUMNS} FROM monitoring.incidents WHERE id = $1`, [
        'automatic-1',
      ])
    ).rows
    const staged = await stageIncidentEvent(harness.ctx.sql, 'incident.opened', row!, {
      message: 'connect ECONNREFUSED 10.0.0.7:443',
      automatic: true,
    })
    await publishStagedEvents(harness.ctx, { ids: staged })
    await eventsSettled(harness.ctx)
    await waitUntil(() => mailsTo('at-once@example.org').length === 2, 'the opening on the page publishing at once')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mailsTo('held@example.org')).toHaveLength(1)

    const published = await call('PUT', '/api/incidents/automatic-1/public', { published: true })
    expect(published.status).toBe(200)
    await eventsSettled(harness.ctx)
    await waitUntil(() => mailsTo('held@example.org').length === 2, 'the opening once published')
    const mail = mailsTo('held@example.org')[1]!.raw
    expect(mail).toContain('Shop')
    expect(mail).not.toContain('10.0.0.7')
    expect(mailHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    expect((await call('PUT', '/api/incidents/automatic-1/public', { published: true })).status).toBe(200)
    await eventsSettled(harness.ctx)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mailsTo('held@example.org')).toHaveLength(2)
    expect(mailsTo('at-once@example.org')).toHaveLength(2)
  })

  it('refuses bad input with a 4xx naming the field, and private pages as unknown', async () => {
    const bad = await subscribe({ email: 'not-an-address' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toContain('email')
    const unknownComponent = await subscribe({ email: 'x@example.org', componentIds: ['nope'] })
    expect(unknownComponent.statusCode).toBe(400)
    expect(unknownComponent.json().message).toContain('componentIds')
    expect((await subscribe({ webhookUrl: 'ftp://example.org' })).statusCode).toBe(400)
    await call('POST', '/api/status-pages', { name: 'Hidden', slug: 'hidden-status' })
    expect((await subscribe({ email: 'x@example.org' }, 'hidden-status')).statusCode).toBe(404)
    expect((await app.inject({ method: 'POST', url: '/status/acme-status/unsubscribe?token=a.b' })).statusCode).toBe(
      404,
    )
    expect(
      (await call('PUT', `/api/status-pages/${page.id}/subscriber-settings`, { maintenanceNoticeHours: -1 })).status,
    ).toBe(400)
    expect((await call('POST', `/api/status-pages/${page.id}/subscribers/import`, { emails: [] })).status).toBe(400)
  })
})

describe('public subscribe limit', () => {
  it('answers 429 past GUARD_SUBSCRIBE_MAX_PER_MINUTE for one client', async () => {
    const harness = await collectorForTest({ GUARD_SUBSCRIBE_MAX_PER_MINUTE: '2' })
    const app = await buildCollectorApp(harness.ctx)
    try {
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/status-pages/no-such-page/subscribe',
          payload: { email: `x${i}@example.org` },
          remoteAddress: '127.0.0.7',
        })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([404, 404, 429])
    } finally {
      await app.close()
      await harness.close()
    }
  })
})
