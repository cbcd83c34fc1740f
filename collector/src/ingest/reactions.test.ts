import {
  type CheckResult,
  createInProcessBus,
  DEFAULT_ORGANIZATION,
  encodeDeviceEvent,
  encodeEvent,
  type GuardEvent,
  guardStreams,
} from '@guard/shared'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildCollectorApp } from '../app.ts'
import { resultFor } from '../routes/test-helpers.ts'
import { publishStagedEvents } from '../services/events/publish.ts'
import { countUnprocessedEvents } from '../services/events/unprocessed.ts'
import { deviceRecovered, deviceTrouble } from '../services/incidents/engine.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
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
import type { HandlerScope } from './consume-events.ts'

const ORG = DEFAULT_ORGANIZATION.id
const DAY = 86_400

/** The Block Kit rules Slack enforces on the blocks we send (api.slack.com/reference/block-kit). */
const plainText = (max: number) =>
  z.strictObject({ type: z.literal('plain_text'), text: z.string().min(1).max(max), emoji: z.boolean().optional() })
const mrkdwn = z.strictObject({ type: z.literal('mrkdwn'), text: z.string().min(1).max(3000) })
const blockKitMessage = z.strictObject({
  text: z.string().min(1).max(40_000),
  blocks: z
    .array(
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('header'), text: plainText(150) }),
        z.strictObject({ type: z.literal('section'), text: mrkdwn }),
        z.strictObject({ type: z.literal('context'), elements: z.array(mrkdwn).min(1).max(10) }),
        z.strictObject({
          type: z.literal('actions'),
          elements: z
            .array(
              z.strictObject({
                type: z.literal('button'),
                text: plainText(75),
                url: z.url().max(3000),
                action_id: z.string().max(255),
              }),
            )
            .min(1)
            .max(25),
        }),
      ]),
    )
    .min(1)
    .max(50),
})

describe('incidents and notifications from the state machine', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  let webhook: Awaited<ReturnType<typeof startReceiver>>
  let slack: Awaited<ReturnType<typeof startReceiver>>
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>
  let secret: string
  const user = { authorization: 'Bearer user:alice' }
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    injectAsUser(app, 'alice', method, url, payload)
  const domain = async (name: string) =>
    (await call('POST', '/api/domains', { url: `https://${name}.example` })).body.data.id as string
  /** Feeds results 1 s apart, ending `endSecondsAgo` seconds ago, and waits for every reaction. */
  const feed = async (id: string, statuses: CheckResult['status'][], endSecondsAgo: number, extra = {}) => {
    const results = statuses.map((status, index) =>
      resultFor(id, ORG, 'fra', endSecondsAgo + statuses.length - 1 - index, status, 10, extra),
    )
    await applyResultsToState(harness.ctx.sql, results)
    await eventsSettled(harness.ctx)
  }
  const incidentsOf = async (monitorId: string) =>
    (await call('GET', '/api/incidents?limit=100')).body.data.filter(
      (incident: { monitorId: string }) => incident.monitorId === monitorId,
    ) as Array<{
      id: string
      status: string
      severity: string
      cause: string
      flapCount: number
      resolvedBy: string | null
    }>
  const deliveries = async () =>
    (await call('GET', '/api/notifications/deliveries?limit=200')).body.data as Array<{
      channel: string
      eventType: string
      status: string
      attempts: number
      log: Array<{ statusCode: number | null }>
    }>
  const until = async <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await probe()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  beforeAll(async () => {
    webhook = await startReceiver([500, 503, 200])
    slack = await startReceiver([200])
    smtp = await startSmtpSink()
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_SMTP_URL: smtp.url,
      GUARD_DELIVERY_BASE_DELAY_MS: '50',
      GUARD_DELIVERY_POLL_MS: '50',
      GUARD_NOTIFY_FLAP_DELAY_SECONDS: '1',
      GUARD_RATE_LIMIT_READ: '100000',
      GUARD_RATE_LIMIT_WRITE: '100000',
    })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { alice: userCaller('alice', [ORG]) }),
    })
    reactions = await startReactionsForTest(harness.ctx)
    const settings = await call('PUT', '/api/notifications/settings', {
      webhookUrl: webhook.url,
      slackEnabled: true,
      slackWebhookUrl: slack.url,
      email: 'oncall@example.org',
    })
    expect(settings.status).toBe(200)
    secret = settings.body.data.webhookSecret
    expect(secret).toMatch(/^whsec_/)
    expect((await call('GET', '/api/notifications/settings')).body.data.webhookSecret).toBeUndefined()
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
    await Promise.all([webhook.close(), slack.close(), smtp.close()])
  })

  it('opens exactly one incident, notifies once per channel, and resolves it with an automatic update', async () => {
    const id = await domain('failing')
    await feed(id, ['up', 'down', 'down', 'down'], 300)
    const [incident, ...others] = await incidentsOf(id)
    expect(others).toEqual([])
    expect(incident).toMatchObject({ status: 'open', severity: 'critical', cause: 'down' })

    const opened = await until(async () => {
      const log = (await deliveries()).filter((d) => d.eventType === 'incident.opened')
      return log.length === 3 && log.every((d) => d.status === 'delivered') ? log : undefined
    }, 'three delivered channels')
    const hook = opened.find((d) => d.channel === 'webhook')!
    expect(hook.attempts).toBe(3)
    expect(hook.log.map((entry) => entry.statusCode)).toEqual([500, 503, 200])
    expect(opened.filter((d) => d.channel !== 'webhook').map((d) => d.attempts)).toEqual([1, 1])
    // The receiver saw three attempts of one message; the answered one verifies with the library's own verifier.
    expect(webhook.received.map((r) => r.answered)).toEqual([500, 503, 200])
    expect(new Set(webhook.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    const delivered = webhook.received[2]!
    const verified = new Webhook(secret).verify(delivered.body, delivered.headers) as GuardEvent & {
      timestamp: string
    }
    expect(verified).toMatchObject({ type: 'incident.opened', organizationId: ORG, data: { incidentId: incident!.id } })
    expect(() => new Webhook(secret).verify(delivered.body.replace('opened', 'closed'), delivered.headers)).toThrow()
    expect(() => blockKitMessage.parse(JSON.parse(slack.received[0]!.body))).not.toThrow()
    expect(JSON.parse(slack.received[0]!.body).blocks[3].elements[0].url).toContain(`/incidents/${incident!.id}`)
    expect(smtp.messages).toHaveLength(1)
    expect(smtp.messages[0]!.to).toEqual(['oncall@example.org'])
    expect(smtp.messages[0]!.raw).toMatch(/Subject: \[Guard\] failing\S* is down/)
    expect(smtp.messages[0]!.raw).toContain('text/plain')
    expect(smtp.messages[0]!.raw).toContain('text/html')
    const inbox = (await call('GET', '/api/notifications')).body
    expect(inbox.unreadCount).toBe(1)
    expect(inbox.data[0]).toMatchObject({ type: 'error', isRead: false, incidentId: incident!.id })

    await feed(id, ['up'], 200)
    const detail = (await call('GET', `/api/incidents/${incident!.id}`)).body.data
    expect(detail).toMatchObject({ status: 'resolved', resolvedBy: null })
    expect(detail.updates.at(-1)).toMatchObject({ status: 'resolved', automatic: true })
    expect(detail.updates.at(-1).message).toMatch(/^Recovered after 1m 4[0-9]s: up from 1 of 1 locations/)
    await until(async () => {
      const log = (await deliveries()).filter((d) => d.eventType === 'incident.resolved')
      return log.length === 3 && log.every((d) => d.status === 'delivered') ? log : undefined
    }, 'resolution delivered on three channels')
    expect(new Set(webhook.received.map((r) => r.headers['webhook-id'])).size).toBe(2)
  })

  it('reopens a flapping incident instead of opening one per bounce, and always delivers its latest state', async () => {
    const id = await domain('flapping')
    for (let bounce = 0; bounce < 4; bounce += 1) await feed(id, ['down', 'down', 'up'], 400 - bounce * 10)
    const incidents = await incidentsOf(id)
    expect(incidents).toHaveLength(1)
    expect(incidents[0]).toMatchObject({ status: 'resolved', flapCount: 3 })
    await eventsSettled(harness.ctx)
    await until(async () => {
      const log = (await deliveries()).filter((d) => d.channel === 'webhook' && d.status !== 'superseded')
      return log.length > 0 && log.every((d) => d.status === 'delivered') ? log : undefined
    }, 'every waiting message of the flapping incident delivered')
    const bodies = webhook.received
      .filter((r) => r.answered === 200)
      .map(
        (r) =>
          JSON.parse(r.body) as {
            data: { incidentId: string }
            alert: { kind: string; items?: Array<{ kind: string }> }
          },
      )
      .filter((body) => body.data.incidentId === incidents[0]!.id)
    // The pager's last word is the incident's real state, and the reopenings were announced (as
    // messages of their own or batched into the latest one), never swallowed.
    expect(bodies.at(-1)!.alert.kind).toBe('resolved')
    const kinds = bodies.flatMap((body) => [body.alert.kind, ...(body.alert.items ?? []).map((item) => item.kind)])
    expect(kinds.filter((kind) => kind === 'reopened')).toHaveLength(3)
    expect(kinds.filter((kind) => kind === 'opened')).toHaveLength(1)
  })

  it('changes nothing twice when an event is delivered again', async () => {
    const id = await domain('redelivered')
    await feed(id, ['down', 'down'], 500)
    const { rows } = await harness.ctx.sql.query<{ payload: string }>(
      `SELECT payload FROM monitoring.event_outbox WHERE subject = 'events.monitor.down' AND id LIKE $1`,
      [`%${id}%`],
    )
    const before = { incidents: await incidentsOf(id), deliveries: (await deliveries()).length }
    // Past the stream's duplicate window a redelivery arrives as a new message with the same event id.
    const event = JSON.parse(rows[0]!.payload) as GuardEvent
    await harness.ctx.bus.publish('events.monitor.down', encodeEvent(event), { msgId: `${event.id}#again` })
    await feed(id, ['down'], 400)
    expect(await incidentsOf(id)).toEqual(before.incidents)
    expect((await deliveries()).length).toBe(before.deliveries)
  })

  it('keeps an incident resolved by hand resolved until the next real transition', async () => {
    const id = await domain('manual')
    await feed(id, ['down', 'down'], 600)
    const [incident] = await incidentsOf(id)
    const resolved = await call('PUT', `/api/incidents/${incident!.id}`, { status: 'resolved' })
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolvedBy: 'user:alice',
      acknowledgedBy: 'user:alice',
    })
    await feed(id, ['down', 'down', 'down', 'up'], 500)
    expect(await incidentsOf(id)).toEqual([expect.objectContaining({ id: incident!.id, status: 'resolved' })])
    await feed(id, ['down', 'down'], 400)
    const after = await incidentsOf(id)
    expect(after.map((i) => i.status)).toEqual(['open', 'resolved'])
  })

  it('raises no incident and no notification for a monitor inside a maintenance window', async () => {
    const id = await domain('maintained')
    const now = Date.now()
    const window = await call('POST', '/api/maintenance-windows', {
      title: 'Upgrade',
      monitorId: id,
      startsAt: new Date(now - 3600_000).toISOString(),
      endsAt: new Date(now + 3600_000).toISOString(),
    })
    expect(window.status).toBe(201)
    expect(window.body.data.active).toBe(true)
    const before = (await deliveries()).length
    const unread = (await call('GET', '/api/notifications')).body.unreadCount
    await feed(id, ['down', 'down', 'down'], 100)
    expect(await incidentsOf(id)).toEqual([])
    expect((await deliveries()).length).toBe(before)
    expect((await call('GET', '/api/notifications')).body.unreadCount).toBe(unread)
    const history = await harness.ctx.sql.query('SELECT status FROM monitoring.monitor_state WHERE monitor_id = $1', [
      id,
    ])
    expect(history.rows).toEqual([{ status: 'down' }])
  })

  it('announces a certificate at 14 and 7 days once each, raising the severity, and resolves on renewal', async () => {
    const id = await domain('certificate')
    const certificate = (daysLeft: number) => ({
      certificate: {
        valid: true,
        expiresAt: new Date(Date.parse('2027-01-01T00:00:00Z')).toISOString(),
        issuer: 'Test CA',
        subject: 'certificate.example',
      },
      startedAt: new Date(Date.parse('2027-01-01T00:00:00Z') - daysLeft * DAY * 1000).toISOString(),
    })
    const at = (daysLeft: number) => [{ ...resultFor(id, ORG, 'fra', 0, 'up', 10), ...certificate(daysLeft) }]
    for (const days of [40, 10, 9.5, 5, 4]) {
      await applyResultsToState(harness.ctx.sql, at(days))
      await eventsSettled(harness.ctx)
    }
    const { rows } = await harness.ctx.sql.query<{ id: string }>(
      `SELECT id FROM monitoring.event_outbox WHERE subject = 'events.certificate.expiring' AND id LIKE $1 ORDER BY id`,
      [`%${id}%`],
    )
    expect(rows.map((row) => row.id.split(':').at(-1))).toEqual(['14', '7'])
    const incidents = await incidentsOf(id)
    expect(incidents).toEqual([expect.objectContaining({ cause: 'certificate', severity: 'medium', status: 'open' })])
    const renewed = {
      ...resultFor(id, ORG, 'fra', 0, 'up', 10),
      certificate: {
        valid: true,
        expiresAt: '2027-04-01T00:00:00.000Z',
        issuer: 'Test CA',
        subject: 'certificate.example',
      },
      startedAt: new Date(Date.parse('2027-01-01T00:00:00Z') - 3 * DAY * 1000).toISOString(),
    }
    await applyResultsToState(harness.ctx.sql, [renewed])
    await eventsSettled(harness.ctx)
    const detail = (await call('GET', `/api/incidents/${incidents[0]!.id}`)).body.data
    expect(detail).toMatchObject({ status: 'resolved', resolvedBy: null })
    expect(detail.updates.at(-1).message).toBe(
      'Certificate renewed: the one now served expires on 2027-04-01T00:00:00.000Z',
    )
  })

  it('resolves the open incidents of a monitor that is deleted', async () => {
    const id = await domain('deleted')
    await feed(id, ['down', 'down'], 50)
    expect((await incidentsOf(id)).map((i) => i.status)).toEqual(['open'])
    expect((await app.inject({ method: 'DELETE', url: `/api/domains/${id}`, headers: user })).statusCode).toBe(200)
    await eventsSettled(harness.ctx)
    const detail = (await call('GET', `/api/incidents/${(await incidentsOf(id))[0]!.id}`)).body.data
    expect(detail).toMatchObject({ status: 'resolved', resolvedBy: null })
    expect(detail.updates.at(-1).message).toBe('Resolved because its monitor was deleted')
  })

  it('opens and resolves device incidents through the same engine, ready for the device events', async () => {
    const run = (work: (scope: HandlerScope) => Promise<void>) =>
      harness.ctx.sql.transaction(async (tx) => {
        const scope: HandlerScope = { tx, staged: [], afterCommit: [] }
        await work(scope)
        return scope.staged
      })
    const at = new Date().toISOString()
    const trouble = {
      organizationId: ORG,
      deviceId: 'device-1',
      deviceName: 'db-1',
      cause: 'device-offline' as const,
      severity: 'high' as const,
      at,
      message: 'No heartbeat for 3 minutes',
    }
    await run((scope) => deviceTrouble(harness.ctx, scope, trouble))
    await run((scope) => deviceTrouble(harness.ctx, scope, trouble))
    const opened = await incidentsOf('device-1')
    expect(opened).toEqual([expect.objectContaining({ status: 'open', severity: 'high', cause: 'device-offline' })])
    expect(opened[0]).toMatchObject({ monitorKind: 'device', affectedDevices: ['device-1'], title: 'db-1 is offline' })
    const staged = await run((scope) =>
      deviceRecovered(scope, { deviceId: 'device-1', cause: 'device-offline', at, message: 'Heartbeats again' }),
    )
    expect(staged).toHaveLength(1)
    expect((await incidentsOf('device-1'))[0]!.status).toBe('resolved')
    await eventsSettled(harness.ctx)
  })

  it('publishes again at start the events a lost in-process stream never delivered', async () => {
    const id = await domain('lost')
    await applyResultsToState(harness.ctx.sql, [
      resultFor(id, ORG, 'fra', 20, 'down', 10),
      resultFor(id, ORG, 'fra', 19, 'down', 10),
    ])
    // Published to a bus that dies before any consumer read it, as a killed embedded Guard's would.
    const lost = createInProcessBus({ streams: guardStreams })
    await publishStagedEvents({ sql: harness.ctx.sql, bus: lost }, { olderThanMs: 0 })
    await lost.close()
    expect(await countUnprocessedEvents(harness.ctx.sql)).toBeGreaterThan(0)
    const bus = createInProcessBus({ streams: guardStreams })
    const restarted = await startReactionsForTest({ ...harness.ctx, bus })
    await until(async () => ((await countUnprocessedEvents(harness.ctx.sql)) === 0 ? true : undefined), 'republished')
    await restarted.stop()
    await bus.close()
    expect(await incidentsOf(id)).toEqual([expect.objectContaining({ status: 'open', cause: 'down' })])
  })

  it('opens an incident from a device.offline event on the bus and resolves it on device.online', async () => {
    const base = { v: 1 as const, organizationId: ORG }
    const ref = { deviceId: 'device-2', deviceName: 'web-2', hostname: null }
    const offline = encodeDeviceEvent({
      ...base,
      id: 'device-2:1',
      type: 'device.offline',
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
      data: { ...ref, lastSeen: null, offlineAfterSeconds: 180 },
    })
    await harness.ctx.bus.publish('events.device.offline', offline, { msgId: 'device-2:1' })
    const [incident] = await until(async () => {
      const found = await incidentsOf('device-2')
      return found.length > 0 ? found : undefined
    }, 'a device incident')
    expect(incident).toMatchObject({ status: 'open', severity: 'high', cause: 'device-offline', monitorKind: 'device' })
    const online = encodeDeviceEvent({
      ...base,
      id: 'device-2:2',
      type: 'device.online',
      occurredAt: new Date().toISOString(),
      data: { ...ref, lastSeen: new Date().toISOString(), wasOffline: true },
    })
    await harness.ctx.bus.publish('events.device.online', online, { msgId: 'device-2:2' })
    await until(async () => ((await incidentsOf('device-2'))[0]?.status === 'resolved' ? true : undefined), 'resolved')
    await eventsSettled(harness.ctx)
  })

  it('feeds the activity feed once per event', async () => {
    const { rows } = await harness.ctx.sql.query<{ events: string; lines: string }>(
      `SELECT (SELECT count(*) FROM monitoring.event_outbox) AS events,
              (SELECT count(*) FROM monitoring.activity a JOIN monitoring.event_outbox o ON o.id = a.event_id) AS lines`,
    )
    expect(Number(rows[0]!.lines)).toBe(Number(rows[0]!.events))
  })
})
