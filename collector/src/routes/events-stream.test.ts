import type { AddressInfo } from 'node:net'
import { DEFAULT_ORGANIZATION, type GuardEvent } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { revokeApiKey } from '../services/api-keys/revoke.ts'
import { publishStagedEvents } from '../services/events/publish.ts'
import { stageEvents } from '../services/events/stage.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

const down = (monitorId: string, at: number, organizationId: string = ORG): GuardEvent => ({
  v: 1,
  id: `monitor.down:${monitorId}:${at}`,
  type: 'monitor.down',
  occurredAt: new Date(at).toISOString(),
  organizationId,
  data: {
    monitorId,
    monitorKind: 'domain',
    monitorName: `Monitor ${monitorId}`,
    target: 'https://example.org/',
    locations: { failing: ['fra'], total: ['fra'] },
    errorKind: 'status_mismatch',
    errorMessage: 'HTTP 503',
    statusCode: 503,
  },
})

/** Reads SSE frames from a streaming response until `count` events (not comments) arrived. */
async function readEvents(response: Response, count: number, timeoutMs = 10_000) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: Array<{ event: string; id?: string; data: Record<string, unknown> }> = []
  let buffer = ''
  const deadline = Date.now() + timeoutMs
  while (events.length < count && Date.now() < deadline) {
    const { value, done } = await Promise.race([
      reader.read(),
      new Promise<{ value: undefined; done: true }>((resolve) =>
        setTimeout(() => resolve({ value: undefined, done: true }), deadline - Date.now()),
      ),
    ])
    if (value) buffer += value
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const frame = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const fields = Object.fromEntries(
        frame
          .split('\n')
          .filter((line) => line && !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
      )
      if (fields.event) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? '{}') })
      end = buffer.indexOf('\n\n')
    }
    if (done) break
  }
  await reader.cancel()
  return events
}

describe('GET /api/events/stream', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let base: string
  const headers = { authorization: 'Bearer user:ada' }

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_EVENT_STREAM_KEEPALIVE_MS: '200' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        ada: userCaller('ada', [ORG, 'org-two']),
        devicesOnly: userCaller('devicesOnly', [ORG], ['devices:read']),
      }),
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await app?.close()
    await harness?.close()
  })

  const publish = async (events: GuardEvent[]) => {
    await stageEvents(harness.ctx.sql, events)
    await publishStagedEvents(harness.ctx, { ids: events.map((event) => event.id) })
  }

  it("streams the organization's events as they are published, and nothing of another organization", async () => {
    const response = await fetch(`${base}/api/events/stream?maxSeconds=20`, { headers })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reading = readEvents(response, 1)
    await new Promise((resolve) => setTimeout(resolve, 200))
    await publish([down('other-org-monitor', Date.now(), 'org-stranger'), down('live-1', Date.now())])
    const [event] = await reading
    expect(event).toMatchObject({ event: 'monitor.down', data: { data: { monitorId: 'live-1' } } })
    expect(event!.id).toBe(event!.data.id)
  })

  it('replays what was missed after Last-Event-ID, in order, and asks for a reload when the id is unknown', async () => {
    const at = Date.now()
    await publish([down('seen', at), down('missed-1', at + 1), down('missed-2', at + 2)])
    const replay = await fetch(`${base}/api/events/stream?maxSeconds=5`, {
      headers: { ...headers, 'last-event-id': down('seen', at).id },
    })
    const events = await readEvents(replay, 2)
    expect(events.map((event) => (event.data.data as { monitorId: string }).monitorId)).toEqual([
      'missed-1',
      'missed-2',
    ])
    const unknown = await fetch(`${base}/api/events/stream?maxSeconds=5`, {
      headers: { ...headers, 'last-event-id': 'monitor.down:gone:1' },
    })
    expect((await readEvents(unknown, 1))[0]?.event).toBe('resync')
  })

  it('shows only the kinds of events the caller may read', async () => {
    const response = await fetch(`${base}/api/events/stream?maxSeconds=3`, {
      headers: { authorization: 'Bearer user:devicesOnly' },
    })
    const reading = readEvents(response, 1, 2500)
    await new Promise((resolve) => setTimeout(resolve, 200))
    await publish([down('hidden', Date.now())])
    expect(await reading).toEqual([])
  })

  it("refuses an organization that is not the caller's", async () => {
    const response = await fetch(`${base}/api/events/stream?organizationId=org-stranger`, { headers })
    expect(response.status).toBe(403)
    await response.body?.cancel()
  })

  it('ends an open stream at its next keep-alive once its API key is revoked', async () => {
    const key = await createApiKey(harness.ctx.sql, { organizationId: ORG, name: 'stream', permissions: ['*:*'] })
    const response = await fetch(`${base}/api/events/stream?maxSeconds=60`, {
      headers: { authorization: `Bearer ${key.key}` },
    })
    expect(response.status).toBe(200)
    let ended = false
    const body = response.text().then(() => {
      ended = true
    })
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(ended).toBe(false)
    await revokeApiKey(harness.ctx, userCaller('ada', [ORG]), key.id)
    const outcome = await Promise.race([
      body.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5000)),
    ])
    expect(outcome).toBe('ended')
  })
})
