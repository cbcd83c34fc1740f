import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../collector/src/test-support.ts'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type GuardProcess, seedDataDir, spawnGuard } from './support/spawn-guard.ts'

type Receiver = Awaited<ReturnType<typeof startReceiver>>

interface Hook {
  webhookId: string
  kind: string
  /** The alert's moment (its escalation pass, for steps and reminders). */
  at: number
  incidentId: string | undefined
}

interface Channel {
  id: string
  receiver: Receiver
  secret: string
}

interface Delivery {
  channelName: string
  purpose: string
  status: string
}

const MINUTE = 60_000

/** The webhooks a channel received, each checked against its Standard Webhooks signature. */
function hooksOf(channel: Channel, incidentId: string): Hook[] {
  const verifier = new Webhook(channel.secret)
  return channel.receiver.received
    .map((request) => {
      const body = verifier.verify(request.body, request.headers) as {
        timestamp: string
        alert: { kind: string; incident?: { id: string } }
      }
      return {
        webhookId: request.headers['webhook-id']!,
        kind: body.alert.kind,
        at: Date.parse(body.timestamp),
        incidentId: body.alert.incident?.id,
      }
    })
    .filter((hook) => hook.incidentId === incidentId)
}

const kindsOf = (channel: Channel, incidentId: string) => hooksOf(channel, incidentId).map((hook) => hook.kind)

/**
 * Organization alerting in the real embedded Guard: webhook channels on local receivers, an
 * escalation policy on a route that takes one heartbeat's incidents, the escalation worker every
 * 200 ms. A heartbeat's failure ping takes it down at once and its success ping resolves it, so the
 * incident's life is driven by the test, not by probe timing.
 */
describe('escalation (embedded Guard)', () => {
  let root: string
  let guard: GuardProcess
  let env: Record<string, string>
  let base: string
  let api: ReturnType<typeof collectorClient>
  const receivers: Receiver[] = []

  const start = async () => {
    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-alerting-'))
    await seedDataDir(join(root, 'data'))
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    env = {
      GUARD_DATA_DIR: join(root, 'data'),
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(port),
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_ESCALATION_POLL_MS: '200',
      GUARD_DELIVERY_POLL_MS: '100',
    }
    await start()
    api = collectorClient(base, guard.output().match(/api key: (guard_\S+)/)![1]!)
  }, 130_000)

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    for (const receiver of receivers) await receiver.close()
    await rm(root, { recursive: true, force: true })
  })

  /** A webhook channel on its own receiver, kept off the default route so only our route reaches it. */
  const channel = async (name: string): Promise<Channel> => {
    const receiver = await startReceiver()
    receivers.push(receiver)
    const created = await api.post('/api/notification-channels', {
      name,
      provider: 'webhook',
      config: { url: receiver.url },
      addToDefaultRoute: false,
    })
    expect(created.status).toBe(201)
    const view = created.body.data as { id: string; generatedSecrets: { secret: string } }
    return { id: view.id, receiver, secret: view.generatedSecrets.secret }
  }

  /** A heartbeat whose incidents go to its own route: a policy of `steps`, reminders every `reminderMinutes`. */
  const heartbeatRoutedTo = async (
    name: string,
    steps: Array<{ afterMinutes: number; channels: Channel[] }>,
    reminderMinutes: number | null,
  ) => {
    const policy = await api.post('/api/escalation-policies', {
      name,
      steps: steps.map((step) => ({ afterMinutes: step.afterMinutes, channelIds: step.channels.map((c) => c.id) })),
    })
    expect(policy.status).toBe(201)
    const heartbeat = await api.post('/api/heartbeats', { name, every: 3600, grace: 0 })
    expect(heartbeat.status).toBe(201)
    const { id, pingUrl } = heartbeat.body.data as { id: string; pingUrl: string }
    const route = await api.post('/api/notification-routes', {
      name,
      position: 10,
      selector: { monitorIds: [id] },
      escalationPolicyId: (policy.body.data as { id: string }).id,
      reminderMinutes,
    })
    expect(route.status).toBe(201)
    const ping = async (suffix = '') => {
      const response = await fetch(`${base}${new URL(pingUrl).pathname}${suffix}`, { method: 'POST' })
      expect(response.status).toBe(200)
    }
    const incidentOf = async (status: string) =>
      eventually(
        async () =>
          (
            (await api.get('/api/incidents')).body.data as Array<{ id: string; monitorId: string; status: string }>
          ).find((incident) => incident.monitorId === id && incident.status === status),
        `a ${status} incident of ${name}`,
      )
    return { ping, incidentOf }
  }

  const received = (channel: Channel, incidentId: string, kind: string, after = 0) =>
    eventually(
      async () => hooksOf(channel, incidentId).find((hook) => hook.kind === kind && hook.at > after),
      `${kind} at ${channel.receiver.url}`,
      30_000,
      100,
    )

  it('notifies step 1 at once and step 2 after its delay, reminds, stops at acknowledgement and tells the notified of the resolution', async () => {
    const [a, b, c] = [await channel('On call A'), await channel('On call B'), await channel('Manager C')]
    const thirdStepMinutes = 0.3
    const { ping, incidentOf } = await heartbeatRoutedTo(
      'Nightly backup',
      [
        { afterMinutes: 0, channels: [a] },
        { afterMinutes: 0.05, channels: [b] },
        { afterMinutes: thirdStepMinutes, channels: [c] },
      ],
      0.1,
    )

    await ping('/fail')
    const incident = await incidentOf('open')
    const opened = await received(a, incident.id, 'opened')
    const escalated = await received(b, incident.id, 'escalated')
    // Step 2 is due 3 s after step 1, which went out with the opening.
    expect(escalated.at - opened.at).toBeGreaterThanOrEqual(0.05 * MINUTE)
    const reminder = await received(a, incident.id, 'reminder')
    expect(reminder.at - opened.at).toBeGreaterThanOrEqual(0.1 * MINUTE)
    await received(b, incident.id, 'reminder')
    expect(kindsOf(c, incident.id)).toEqual([])

    expect((await api.post(`/api/incidents/${incident.id}/acknowledge`, {})).status).toBe(200)
    await received(a, incident.id, 'acknowledged')
    await received(b, incident.id, 'acknowledged')
    // A reminder from a pass after step 3 was due: that pass would have sent step 3 had nobody acknowledged.
    await received(a, incident.id, 'reminder', opened.at + thirdStepMinutes * MINUTE)
    expect(kindsOf(c, incident.id)).toEqual([])

    await ping()
    await incidentOf('resolved')
    await received(a, incident.id, 'resolved')
    await received(b, incident.id, 'resolved')
    expect(kindsOf(c, incident.id)).toEqual([])
    expect(kindsOf(a, incident.id)[0]).toBe('opened')
    expect(kindsOf(b, incident.id)[0]).toBe('escalated')

    const timeline = (await api.get(`/api/incidents/${incident.id}/notifications`)).body.data as {
      deliveries: Delivery[]
      escalations: Array<{ stoppedReason: string | null; nextStepAt: string | null }>
    }
    expect(timeline.escalations).toEqual([expect.objectContaining({ stoppedReason: 'resolved', nextStepAt: null })])
    expect(timeline.deliveries.filter((delivery) => delivery.channelName === 'Manager C')).toEqual([])
    expect(
      timeline.deliveries
        .filter((delivery) => delivery.purpose.startsWith('escalation'))
        .map((d) => [d.channelName, d.purpose]),
    ).toEqual(
      expect.arrayContaining([
        ['On call A', 'escalation step 1'],
        ['On call B', 'escalation step 2'],
      ]),
    )
  }, 120_000)

  it('a collector SIGKILLed between step 1 and step 2 sends step 2 after its restart, once per channel', async () => {
    const [a, b, c] = [await channel('Primary A'), await channel('Secondary B'), await channel('Secondary C')]
    const secondStepMinutes = 0.25
    const { ping, incidentOf } = await heartbeatRoutedTo(
      'Database dump',
      [
        { afterMinutes: 0, channels: [a] },
        { afterMinutes: secondStepMinutes, channels: [b, c] },
      ],
      null,
    )

    await ping('/fail')
    const incident = await incidentOf('open')
    const opened = await received(a, incident.id, 'opened')
    await guard.stop('SIGKILL')
    // The kill came before step 2 was due, or this test proves nothing.
    expect(Date.now() - opened.at).toBeLessThan(secondStepMinutes * MINUTE)
    expect([...kindsOf(b, incident.id), ...kindsOf(c, incident.id)]).toEqual([])

    await start()
    const second = [await received(b, incident.id, 'escalated'), await received(c, incident.id, 'escalated')]
    for (const hook of second) expect(hook.at - opened.at).toBeGreaterThanOrEqual(secondStepMinutes * MINUTE)

    // Resolution goes to all three: by then every delivery queued before it has been attempted.
    await ping()
    for (const ch of [a, b, c]) await received(ch, incident.id, 'resolved')
    const distinctIds = (ch: Channel, kind: string) =>
      new Set(
        hooksOf(ch, incident.id)
          .filter((hook) => hook.kind === kind)
          .map((hook) => hook.webhookId),
      ).size
    // Sent again after the kill (the outbox is at least once) is allowed, under the same webhook-id.
    console.info(
      JSON.stringify({
        killedCollector: Object.fromEntries(
          [a, b, c].map((ch, index) => [
            'ABC'[index],
            { requests: hooksOf(ch, incident.id).length, kinds: kindsOf(ch, incident.id) },
          ]),
        ),
      }),
    )
    expect(distinctIds(a, 'opened')).toBe(1)
    expect(distinctIds(b, 'escalated')).toBe(1)
    expect(distinctIds(c, 'escalated')).toBe(1)
    expect(kindsOf(a, incident.id).filter((kind) => kind === 'escalated')).toEqual([])
  }, 180_000)
})
