import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { pagerduty } from './index.ts'

const ROUTING_KEY = 'R0123456789abcdef0123456789abcde'

describe('PagerDuty provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer: FakeAnswer = { status: 202, json: { status: 'success', message: 'Event processed' } }
  const config = () => pagerduty.config.parse({ routingKey: ROUTING_KEY, eventsUrl: fake.url })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = { status: 202, json: { status: 'success', message: 'Event processed' } }
  })

  it('triggers an Events API v2 alert keyed by the incident, with summary, severity, source and links', async () => {
    expect(await pagerduty.send(sampleAlert('opened'), config(), providerTestIO())).toEqual({
      ok: true,
      statusCode: 202,
    })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/v2/enqueue')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.body).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'guard-inc_1',
      payload: {
        summary: 'Checkout API is down',
        source: 'guard:service/svc_1',
        severity: 'critical',
        timestamp: '2026-11-27T03:00:00.000Z',
        component: 'service',
        custom_details: {
          text: 'Down from eu, us (2 of 3 locations): Connection refused',
          kind: 'opened',
          event: 'incident.opened',
          incident: 'inc_1',
          cause: 'down',
          detected_at: '2026-11-27T02:55:50.000Z',
        },
      },
      links: [
        { href: 'http://127.0.0.1:4000/console/incidents/inc_1', text: 'Open in Guard' },
        { href: 'http://127.0.0.1:4000/ack/tok_1', text: 'Acknowledge in Guard' },
      ],
      client: 'Guard',
      client_url: 'http://127.0.0.1:4000',
    })
  })

  it('resolves and acknowledges the alert it triggered: same dedup key, documented minimal body', async () => {
    const io = providerTestIO()
    await pagerduty.send(sampleAlert('opened'), config(), io)
    await pagerduty.send(sampleAlert('acknowledged'), config(), io)
    await pagerduty.send(sampleAlert('resolved'), config(), io)
    const [trigger, acknowledge, resolve] = fake.requests.map((request) => request.body)
    expect(acknowledge).toEqual({ routing_key: ROUTING_KEY, event_action: 'acknowledge', dedup_key: 'guard-inc_1' })
    expect(resolve).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: 'guard-inc_1' })
    expect(trigger?.dedup_key).toBe(resolve?.dedup_key)
  })

  it('sends reminders and updates as triggers on the same dedup key, severity mapped from Guard', async () => {
    await pagerduty.send(sampleAlert('reminder', { severity: 'medium' }), config(), providerTestIO())
    const body = fake.requests[0]?.body as unknown as { event_action: string; dedup_key: string; payload: object }
    expect(body.event_action).toBe('trigger')
    expect(body.dedup_key).toBe('guard-inc_1')
    expect(body.payload).toMatchObject({ summary: 'Still open: Checkout API is down', severity: 'warning' })
  })

  it('gives a test alert (no incident) its own dedup key', async () => {
    await pagerduty.send(sampleAlert('test', { incident: undefined, eventId: 'evt_t1' }), config(), providerTestIO())
    expect(fake.requests[0]?.body).toMatchObject({ event_action: 'trigger', dedup_key: 'guard-test-evt_t1' })
  })

  it('clips the summary to the 1024 characters PagerDuty accepts', async () => {
    await pagerduty.send(sampleAlert('opened', { title: 'x'.repeat(2000) }), config(), providerTestIO())
    const body = fake.requests[0]?.body as unknown as { payload: { summary: string } }
    expect(body.payload.summary).toHaveLength(1024)
  })

  it('retries a 429 after 30 s when PagerDuty gives no Retry-After, and after Retry-After when it does', async () => {
    answer = { status: 429, json: { status: 'throttle event', message: 'Requests for this service are throttled' } }
    expect(await pagerduty.send(sampleAlert(), config(), providerTestIO())).toMatchObject({
      ok: false,
      statusCode: 429,
      retryAfterMs: 30_000,
    })
    answer = { status: 429, headers: { 'retry-after': '7' } }
    const result = await pagerduty.send(sampleAlert(), config(), providerTestIO())
    expect(result).toMatchObject({ ok: false, retryAfterMs: 7000 })
    expect(result).not.toHaveProperty('permanent')
  })

  it('marks a 400 (invalid routing key or event) permanent and retries a 5xx', async () => {
    answer = { status: 400, json: { status: 'invalid event', message: 'Event object is invalid' } }
    expect(await pagerduty.send(sampleAlert(), config(), providerTestIO())).toMatchObject({
      ok: false,
      permanent: true,
    })
    answer = { status: 502 }
    const result = await pagerduty.send(sampleAlert(), config(), providerTestIO())
    expect(result).toMatchObject({ ok: false, statusCode: 502 })
    expect(result).not.toHaveProperty('permanent')
  })

  it('keeps the routing key and signing secret secret, the events URL vetted', () => {
    expect(pagerduty.secretFields).toEqual(['routingKey', 'webhookSigningSecret'])
    expect(pagerduty.urlFields).toEqual(['eventsUrl'])
    expect(pagerduty.config.parse({ routingKey: ROUTING_KEY }).eventsUrl).toBe('https://events.pagerduty.com')
  })
})

describe('PagerDuty V3 webhook callback', () => {
  const secret = 'pd-signing-secret'
  const config = pagerduty.config.parse({ routingKey: ROUTING_KEY, webhookSigningSecret: secret })
  const payload = (eventType: string) =>
    JSON.stringify({
      event: {
        id: '5ac64822',
        event_type: eventType,
        resource_type: 'incident',
        occurred_at: '2026-11-27T03:01:00.000Z',
        agent: { id: 'PLH1HKV', summary: 'Ada Lovelace', type: 'user_reference' },
        data: { id: 'PGR0VU2', type: 'incident', status: 'acknowledged', incident_key: 'guard-inc_1' },
      },
    })
  const sign = (body: string, key = secret) => `v1=${createHmac('sha256', key).update(body).digest('hex')}`

  it('maps incident.acknowledged and incident.resolved to the alert’s dedup key (data.incident_key)', () => {
    const acknowledged = payload('incident.acknowledged')
    expect(
      pagerduty.callback?.({ headers: { 'x-pagerduty-signature': sign(acknowledged) }, rawBody: acknowledged }, config),
    ).toEqual({ action: 'acknowledge', dedupKey: 'guard-inc_1', by: 'PagerDuty: Ada Lovelace' })
    const resolved = payload('incident.resolved')
    expect(
      pagerduty.callback?.({ headers: { 'x-pagerduty-signature': sign(resolved) }, rawBody: resolved }, config),
    ).toMatchObject({ action: 'resolve', dedupKey: 'guard-inc_1' })
  })

  it('accepts any one of several v1 signatures (secret rotation)', () => {
    const body = payload('incident.resolved')
    const header = `${sign(body, 'old-secret')},${sign(body)}`
    expect(pagerduty.callback?.({ headers: { 'x-pagerduty-signature': header }, rawBody: body }, config)).toMatchObject(
      { action: 'resolve' },
    )
  })

  it('ignores a call with a wrong, missing or other-secret signature, or an altered body', () => {
    const body = payload('incident.resolved')
    const call = (headers: Record<string, string | undefined>, rawBody = body) =>
      pagerduty.callback?.({ headers, rawBody }, config)
    expect(call({})).toBeUndefined()
    expect(call({ 'x-pagerduty-signature': 'v1=00' })).toBeUndefined()
    expect(call({ 'x-pagerduty-signature': sign(body, 'someone-else') })).toBeUndefined()
    expect(call({ 'x-pagerduty-signature': sign(body) }, body.replace('resolved', 'acknowledged'))).toBeUndefined()
  })

  it('ignores events Guard does not act on and every call when no signing secret is set', () => {
    const triggered = payload('incident.triggered')
    expect(
      pagerduty.callback?.({ headers: { 'x-pagerduty-signature': sign(triggered) }, rawBody: triggered }, config),
    ).toBeUndefined()
    const resolved = payload('incident.resolved')
    const unsigned = pagerduty.config.parse({ routingKey: ROUTING_KEY })
    expect(
      pagerduty.callback?.({ headers: { 'x-pagerduty-signature': sign(resolved) }, rawBody: resolved }, unsigned),
    ).toBeUndefined()
  })
})
