import { createHmac } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runChannelsCommand } from '../../../bin/commands/channels.ts'
import { buildCollectorApp } from '../app.ts'
import { runDueEscalations } from '../services/notifications/escalation/advance.ts'
import { sendDueDigests } from '../services/notifications/routing/send-digests.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  eventsSettled,
  fakePlatform,
  injectAsUser,
  startReactionsForTest,
  userCaller,
  waitUntil,
} from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id
const OTHER = 'org_other'

describe('notification channels, routes and escalation', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer: (path: string) => { status: number; headers?: Record<string, string> }
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, user = 'alice') =>
    injectAsUser(app, user, method, url, payload)
  const webhookChannel = async (name: string, extra: object = {}) => {
    const created = await call('POST', '/api/notification-channels', {
      name,
      provider: 'webhook',
      config: { url: `${fake.url}/${name}` },
      ...extra,
    })
    expect(created.status).toBe(201)
    return created.body.data as { id: string; generatedSecrets: { secret: string } }
  }
  const received = (name: string) =>
    fake.requests
      .filter((request) => request.path === `/${name}`)
      .map((request) => ({ ...(JSON.parse(request.raw) as { alert: { kind: string } }), headers: request.headers }))

  beforeAll(async () => {
    answer = () => ({ status: 200 })
    fake = await fakePlatform((request) => answer(request.path))
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_DELIVERY_BASE_DELAY_MS: '50',
      GUARD_DELIVERY_POLL_MS: '50',
      // Escalation passes are driven by the test's own clock below.
      GUARD_ESCALATION_POLL_MS: '300000',
      GUARD_RATE_LIMIT_READ: '100000',
      GUARD_RATE_LIMIT_WRITE: '100000',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        mallory: userCaller('mallory', [OTHER]),
      }),
    })
    reactions = await startReactionsForTest(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
    await fake.close()
  })

  it('keeps secrets sealed and unshown: a webhook secret is generated and shown once, a Slack URL never', async () => {
    const hook = await webhookChannel('sealed-hook')
    expect(hook.generatedSecrets.secret).toMatch(/^whsec_/)
    const slack = await call('POST', '/api/notification-channels', {
      name: 'sealed-slack',
      provider: 'slack',
      config: { webhookUrl: `${fake.url}/services/T000/B000/very-secret-token` },
    })
    expect(slack.status).toBe(201)
    expect(slack.body.data).toMatchObject({ config: {}, secretsSet: ['webhookUrl'] })
    const listed = JSON.stringify((await call('GET', '/api/notification-channels')).body)
    expect(listed).not.toContain('very-secret-token')
    expect(listed).not.toContain(hook.generatedSecrets.secret)
    const { rows } = await harness.ctx.sql.query<{ row: string }>(
      'SELECT row_to_json(c)::text AS row FROM monitoring.notification_channels c',
    )
    expect(rows.map((row) => row.row).join()).not.toContain('very-secret-token')
    // A change without the secret keeps it: the channel still sends.
    const renamed = await call('PUT', `/api/notification-channels/${slack.body.data.id}`, {
      name: 'sealed-slack-2',
      config: {},
    })
    expect(renamed.body.data).toMatchObject({ name: 'sealed-slack-2', secretsSet: ['webhookUrl'] })
    const tested = await call('POST', `/api/notification-channels/${slack.body.data.id}/test`)
    expect(tested.body.data).toMatchObject({ ok: true, statusCode: 200 })
    expect(fake.requests.at(-1)!.path).toBe('/services/T000/B000/very-secret-token')
  })

  it('answers bad settings with a 400 naming the field, and another organization with 404', async () => {
    const bad = await call('POST', '/api/notification-channels', {
      name: 'bad',
      provider: 'telegram',
      config: { botToken: 'x' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/^config\.\w+/)
    const unknown = await call('POST', '/api/notification-channels', {
      name: 'bad',
      provider: 'carrier-pigeon',
      config: {},
    })
    expect(unknown.status).toBe(400)
    const hook = await webhookChannel('private-to-alice')
    for (const [method, url] of [
      ['GET', `/api/notification-channels/${hook.id}`],
      ['PUT', `/api/notification-channels/${hook.id}`],
      ['POST', `/api/notification-channels/${hook.id}/test`],
      ['DELETE', `/api/notification-channels/${hook.id}`],
    ] as const) {
      const response = await call(method, url, method === 'PUT' ? { name: 'stolen' } : undefined, 'mallory')
      expect(response.status, `${method} ${url}`).toBe(404)
    }
    const foreignRoute = await call(
      'POST',
      '/api/notification-routes',
      { name: 'steal', channelIds: [hook.id] },
      'mallory',
    )
    expect(foreignRoute.status).toBe(400)
    expect(foreignRoute.body.message).toBe('channelIds: 1 of the ids are not channels of the organization')
    const policy = await call('POST', '/api/escalation-policies', {
      name: 'backwards',
      steps: [
        { afterMinutes: 10, channelIds: [hook.id] },
        { afterMinutes: 5, channelIds: [hook.id] },
      ],
    })
    expect(policy.status).toBe(400)
  })

  it('marks a channel failing when the service refuses its configuration, and clears it on the next success', async () => {
    const hook = await webhookChannel('revoked', { addToDefaultRoute: false })
    answer = (path) => (path === '/revoked' ? { status: 401 } : { status: 200 })
    const refused = await call('POST', `/api/notification-channels/${hook.id}/test`)
    expect(refused.body.data).toMatchObject({ ok: false, statusCode: 401, permanent: true })
    const failing = (await call('GET', `/api/notification-channels/${hook.id}`)).body.data
    expect(failing).toMatchObject({ state: 'failing', lastDeliveryStatus: 'failed' })
    expect(failing.stateReason).toMatch(/^401/)
    answer = () => ({ status: 200 })
    await call('POST', `/api/notification-channels/${hook.id}/test`)
    expect((await call('GET', `/api/notification-channels/${hook.id}`)).body.data).toMatchObject({
      state: 'ok',
      stateReason: null,
    })
  })

  it('waits as long as a 429 says, and sends the same webhook-id on the retry', async () => {
    const hook = await webhookChannel('limited', { addToDefaultRoute: false })
    const route = await call('POST', '/api/notification-routes', {
      name: 'limited route',
      position: 1,
      selector: { causes: ['manual'], severities: ['low'] },
      channelIds: [hook.id],
    })
    expect(route.status).toBe(201)
    let limited = 0
    answer = (path) =>
      path === '/limited' && limited++ === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 }
    const started = Date.now()
    const incident = await call('POST', '/api/incidents', { title: 'rate limited', severity: 'low' })
    expect(incident.status).toBe(201)
    await waitUntil(() => received('limited').length === 2, 'the retry after the 429')
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
    const [first, second] = received('limited')
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id'])
    new Webhook(hook.generatedSecrets.secret).verify(
      fake.requests.filter((r) => r.path === '/limited')[1]!.raw,
      second!.headers as Record<string, string>,
    )
    await call('DELETE', `/api/notification-routes/${route.body.data.id}`)
  })

  it('escalates step by step while nobody acknowledges, reminds, stops at the acknowledgement and tells everyone of the resolution', async () => {
    const [first, second, third, team] = [
      await webhookChannel('step-1', { addToDefaultRoute: false }),
      await webhookChannel('step-2', { addToDefaultRoute: false }),
      await webhookChannel('step-3', { addToDefaultRoute: false }),
      await webhookChannel('team-room', { addToDefaultRoute: false }),
    ]
    const policy = await call('POST', '/api/escalation-policies', {
      name: 'on call',
      steps: [
        { afterMinutes: 0, channelIds: [first!.id] },
        { afterMinutes: 10, channelIds: [second!.id] },
        { afterMinutes: 30, channelIds: [third!.id] },
      ],
    })
    expect(policy.status).toBe(201)
    const route = await call('POST', '/api/notification-routes', {
      name: 'critical manual',
      position: 2,
      selector: { causes: ['manual'], severities: ['critical'] },
      channelIds: [team!.id],
      escalationPolicyId: policy.body.data.id,
      reminderMinutes: 15,
    })
    expect(route.status).toBe(201)
    const incident = (await call('POST', '/api/incidents', { title: 'checkout down', severity: 'critical' })).body.data
    await eventsSettled(harness.ctx)
    await waitUntil(() => received('step-1').length === 1 && received('team-room').length === 1, 'step 1 and the room')
    expect(received('step-1')[0]!.alert.kind).toBe('opened')
    expect(received('step-2')).toEqual([])

    const opened = Date.now()
    await runDueEscalations(harness.ctx, new Date(opened + 9 * 60_000))
    expect(received('step-2')).toEqual([])
    await runDueEscalations(harness.ctx, new Date(opened + 11 * 60_000))
    await waitUntil(() => received('step-2').length === 1, 'step 2 after 10 minutes')
    expect(received('step-2')[0]!.alert.kind).toBe('escalated')
    await runDueEscalations(harness.ctx, new Date(opened + 16 * 60_000))
    await waitUntil(
      () => ['step-1', 'step-2', 'team-room'].every((name) => received(name).length === 2),
      'the reminder',
    )
    // A reminder goes to the route's channels and to everyone the escalation reached so far.
    expect(received('team-room').map((body) => body.alert.kind)).toEqual(['opened', 'reminder'])
    expect(received('step-1').map((body) => body.alert.kind)).toEqual(['opened', 'reminder'])
    expect(received('step-2').map((body) => body.alert.kind)).toEqual(['escalated', 'reminder'])

    expect((await call('POST', `/api/incidents/${incident.id}/acknowledge`)).body.data.status).toBe('acknowledged')
    await eventsSettled(harness.ctx)
    // Step 3 would have been due at 30 minutes; reminders go on until the incident resolves.
    await runDueEscalations(harness.ctx, new Date(opened + 40 * 60_000))
    await waitUntil(
      () => received('step-2').length === 4 && received('step-1').length === 4,
      'the acknowledgement and the second reminder',
    )
    expect(received('step-3')).toEqual([])
    expect(
      received('step-2')
        .map((body) => body.alert.kind)
        .sort(),
    ).toEqual(['acknowledged', 'escalated', 'reminder', 'reminder'])

    await call('PUT', `/api/incidents/${incident.id}`, { status: 'resolved' })
    await eventsSettled(harness.ctx)
    await waitUntil(
      () => ['step-1', 'step-2', 'team-room'].every((name) => received(name).at(-1)!.alert.kind === 'resolved'),
      'the resolution told to everyone notified',
    )
    expect(received('step-3')).toEqual([])
    const timeline = (await call('GET', `/api/incidents/${incident.id}/notifications`)).body.data
    expect(timeline.escalations).toEqual([
      expect.objectContaining({ routeName: 'critical manual', remindersSent: 2, stoppedReason: 'resolved' }),
    ])
    expect(timeline.deliveries.map((d: { purpose: string }) => d.purpose)).toEqual(
      expect.arrayContaining(['event', 'escalation step 1', 'escalation step 2', 'reminder']),
    )
    await call('DELETE', `/api/notification-routes/${route.body.data.id}`)
  })

  it('acknowledges through the signed link only on the button press, and refuses a tampered link', async () => {
    const hook = await webhookChannel('link-room', { addToDefaultRoute: false })
    const route = await call('POST', '/api/notification-routes', {
      name: 'links',
      position: 3,
      selector: { causes: ['manual'], severities: ['high'] },
      channelIds: [hook.id],
    })
    const incident = (await call('POST', '/api/incidents', { title: 'link me', severity: 'high' })).body.data
    await waitUntil(() => received('link-room').length === 1, 'the opening message')
    const link = new URL((received('link-room')[0]!.alert as { acknowledgeUrl?: string }).acknowledgeUrl!)
    const url = `${link.pathname}${link.search}`
    const shown = await app.inject({ method: 'GET', url })
    expect(shown.statusCode).toBe(200)
    expect(shown.body).toContain('<form method="post">')
    expect((await call('GET', `/api/incidents/${incident.id}`)).body.data.status).toBe('open')
    const tampered = `${url.slice(0, -3)}AAA`
    expect((await app.inject({ method: 'POST', url: tampered })).statusCode).toBe(404)
    const pressed = await app.inject({ method: 'POST', url })
    expect(pressed.statusCode).toBe(200)
    const after = (await call('GET', `/api/incidents/${incident.id}`)).body.data
    expect(after).toMatchObject({ status: 'acknowledged', acknowledgedBy: 'link:channel:link-room' })
    await call('DELETE', `/api/notification-routes/${route.body.data.id}`)
  })

  it('holds what is not critical during quiet hours and sends it as one digest when they end; critical goes at once', async () => {
    const now = new Date()
    const clock = (offsetHours: number) => new Date(now.getTime() + offsetHours * 3_600_000).toISOString().slice(11, 16)
    const hook = await webhookChannel('night-room', {
      addToDefaultRoute: false,
      quietHours: { timeZone: 'UTC', from: clock(-1), to: clock(1) },
    })
    const route = await call('POST', '/api/notification-routes', {
      name: 'night',
      position: 4,
      selector: { causes: ['manual'], severities: ['medium', 'critical'] },
      channelIds: [hook.id],
    })
    await call('POST', '/api/incidents', { title: 'slow search', severity: 'medium' })
    await call('POST', '/api/incidents', { title: 'queue backlog', severity: 'medium' })
    await call('POST', '/api/incidents', { title: 'payments down', severity: 'critical' })
    await waitUntil(() => received('night-room').length === 1, 'the critical alert at once')
    expect(received('night-room')[0]!.alert).toMatchObject({ kind: 'opened', severity: 'critical' })
    expect(await sendDueDigests(harness.ctx, new Date(now.getTime() + 30 * 60_000))).toBe(0)
    expect(await sendDueDigests(harness.ctx, new Date(now.getTime() + 2 * 3_600_000))).toBe(1)
    await waitUntil(() => received('night-room').length === 2, 'the digest')
    const digest = received('night-room')[1]!.alert as { kind: string; items: Array<{ title: string }> }
    expect(digest.kind).toBe('digest')
    expect(digest.items.map((item) => item.title).sort()).toEqual(['queue backlog', 'slow search'])
    expect(await sendDueDigests(harness.ctx, new Date(now.getTime() + 3 * 3_600_000))).toBe(0)
    await call('DELETE', `/api/notification-routes/${route.body.data.id}`)
  })

  it('acknowledges through the MCP tool, once: a second call changes nothing', async () => {
    const incident = (await call('POST', '/api/incidents', { title: 'assistant on it', severity: 'low' })).body.data
    const callTool = async (args: Record<string, unknown>) => {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${harness.apiKey}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'acknowledge_incident', arguments: args },
        },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().result as { isError?: boolean; structuredContent?: Record<string, unknown> }
    }
    const first = await callTool({ id: incident.id })
    expect(first.structuredContent).toMatchObject({ id: incident.id, status: 'acknowledged' })
    const acknowledgedAt = first.structuredContent!.acknowledgedAt
    const again = await callTool({ id: incident.id })
    expect(again.structuredContent).toMatchObject({ status: 'acknowledged', acknowledgedAt })
    expect((await callTool({ id: 'no-such-incident' })).isError).toBe(true)
    const updates = (await call('GET', `/api/incidents/${incident.id}/updates`)).body.data as Array<{ message: string }>
    expect(updates.filter((update) => update.message === 'Acknowledged')).toHaveLength(1)
  })

  it('tests a channel from the command line: exit 0 when the service took it, 1 when it refused', async () => {
    const hook = await webhookChannel('cli-room', { addToDefaultRoute: false })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const env = {
      GUARD_COLLECTOR_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      GUARD_API_KEY: harness.apiKey,
      GUARD_DATA_DIR: harness.ctx.env.GUARD_DATA_DIR,
    }
    const printed: string[] = []
    expect(await runChannelsCommand(['test', hook.id], env, (text) => printed.push(text))).toBe(0)
    expect(JSON.parse(printed.at(-1)!)).toMatchObject({ channelId: hook.id, ok: true })
    answer = (path) => (path === '/cli-room' ? { status: 403 } : { status: 200 })
    expect(await runChannelsCommand(['test', hook.id], env, (text) => printed.push(text))).toBe(1)
    expect(await runChannelsCommand(['list'], env, (text) => printed.push(text))).toBe(0)
    expect(JSON.parse(printed.at(-1)!).find((c: { id: string }) => c.id === hook.id)).toMatchObject({
      state: 'failing',
    })
    expect(await runChannelsCommand(['test', 'no-such-channel'], env, (text) => printed.push(text))).toBe(2)
    answer = () => ({ status: 200 })
  })

  it('closes the PagerDuty alert it opened, and takes PagerDuty’s signed acknowledgement back', async () => {
    const signingSecret = 'pd-signing-secret-0123456789'
    const pager = await call('POST', '/api/notification-channels', {
      name: 'pager',
      provider: 'pagerduty',
      addToDefaultRoute: false,
      config: {
        routingKey: 'R0UT1NGKEY0123456789012345678901',
        eventsUrl: `${fake.url}/pd`,
        webhookSigningSecret: signingSecret,
      },
    })
    expect(pager.status, JSON.stringify(pager.body)).toBe(201)
    const route = await call('POST', '/api/notification-routes', {
      name: 'pager route',
      position: 5,
      selector: { causes: ['manual'], severities: ['high'] },
      channelIds: [pager.body.data.id],
    })
    const incident = (await call('POST', '/api/incidents', { title: 'db failover', severity: 'high' })).body.data
    const events = () => fake.requests.filter((r) => r.path === '/pd/v2/enqueue').map((r) => JSON.parse(r.raw))
    await waitUntil(() => events().some((e) => e.dedup_key === `guard-${incident.id}`), 'the trigger')
    const hook = (body: object, signature?: string) => {
      const raw = JSON.stringify(body)
      const sign = createHmac('sha256', signingSecret).update(raw).digest('hex')
      return app.inject({
        method: 'POST',
        url: `/hooks/notification-channels/${pager.body.data.id}`,
        headers: { 'content-type': 'application/json', 'x-pagerduty-signature': `v1=${signature ?? sign}` },
        payload: raw,
      })
    }
    const acknowledged = {
      event: {
        event_type: 'incident.acknowledged',
        agent: { summary: 'Jane Doe' },
        data: { incident_key: `guard-${incident.id}` },
      },
    }
    expect((await hook(acknowledged, 'f'.repeat(64))).json()).toEqual({ result: 'ignored' })
    expect((await call('GET', `/api/incidents/${incident.id}`)).body.data.status).toBe('open')
    expect((await hook(acknowledged)).json()).toEqual({ result: 'acknowledged' })
    expect((await call('GET', `/api/incidents/${incident.id}`)).body.data).toMatchObject({
      status: 'acknowledged',
      acknowledgedBy: 'PagerDuty: Jane Doe',
    })
    await call('PUT', `/api/incidents/${incident.id}`, { status: 'resolved' })
    await waitUntil(
      () => events().some((e) => e.event_action === 'resolve' && e.dedup_key === `guard-${incident.id}`),
      'the resolve keyed by the same dedup key',
    )
    await call('DELETE', `/api/notification-routes/${route.body.data.id}`)
  })

  it('keeps the default route, which the first channel created, and deletes a channel from every route', async () => {
    const routes = (await call('GET', '/api/notification-routes')).body.data as Array<{
      id: string
      isDefault: boolean
      channelIds: string[]
    }>
    const fallback = routes.find((route) => route.isDefault)!
    expect(fallback.channelIds.length).toBeGreaterThan(0)
    expect((await call('DELETE', `/api/notification-routes/${fallback.id}`)).status).toBe(409)
    const gone = fallback.channelIds[0]!
    expect((await call('DELETE', `/api/notification-channels/${gone}`)).status).toBe(200)
    const after = (await call('GET', '/api/notification-routes')).body.data as typeof routes
    expect(after.find((route) => route.isDefault)!.channelIds).not.toContain(gone)
  })
})
