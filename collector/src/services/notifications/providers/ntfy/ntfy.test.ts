import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { clipBytes, ntfy } from './index.ts'

const published: FakeAnswer = {
  status: 200,
  json: { id: 'sPs71M8A2T', time: 1643935928, event: 'message', topic: 'guard-alerts-x7' },
}

describe('ntfy provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer = published
  const config = (extra: Record<string, string> = {}) =>
    ntfy.config.parse({ serverUrl: fake.url, topic: 'guard-alerts-x7', ...extra })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = published
  })

  it('publishes JSON to the server root: topic, title, message, max priority, tags, click and view actions', async () => {
    expect(await ntfy.send(sampleAlert('opened'), config(), providerTestIO())).toEqual({ ok: true, statusCode: 200 })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/')
    expect(request?.headers.authorization).toBeUndefined()
    expect(request?.body).toEqual({
      topic: 'guard-alerts-x7',
      title: 'Checkout API is down',
      message: 'Down from eu, us (2 of 3 locations): Connection refused',
      priority: 5,
      tags: ['rotating_light', 'guard'],
      click: 'http://127.0.0.1:4000/console/incidents/inc_1',
      actions: [
        { action: 'view', label: 'Open in Guard', url: 'http://127.0.0.1:4000/console/incidents/inc_1' },
        { action: 'view', label: 'Acknowledge', url: 'http://127.0.0.1:4000/ack/tok_1' },
      ],
    })
  })

  it('sends a resolution at default priority with a check mark and no Acknowledge button', async () => {
    await ntfy.send(sampleAlert('resolved'), config(), providerTestIO())
    expect(fake.requests[0]?.body).toMatchObject({
      title: 'Resolved: Checkout API is down',
      priority: 3,
      tags: ['white_check_mark', 'guard'],
      actions: [{ action: 'view', label: 'Open in Guard', url: 'http://127.0.0.1:4000/console/incidents/inc_1' }],
    })
  })

  it('lists a digest’s items in the message', async () => {
    const item = {
      kind: 'opened' as const,
      title: 'API down',
      text: 'Timeout',
      occurredAt: '2026-11-27T01:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await ntfy.send(
      sampleAlert('digest', { incident: undefined, text: '2 alerts', items: [item, { ...item, title: 'DB down' }] }),
      config(),
      providerTestIO(),
    )
    expect(fake.requests[0]?.body.message).toBe('2 alerts\n- API down: Timeout\n- DB down: Timeout')
  })

  it('authenticates with an access token as Bearer, or a user as Basic', async () => {
    await ntfy.send(sampleAlert(), config({ accessToken: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' }), providerTestIO())
    await ntfy.send(sampleAlert(), config({ username: 'phil', password: 'mypass' }), providerTestIO())
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2')
    expect(fake.requests[1]?.headers.authorization).toBe(`Basic ${Buffer.from('phil:mypass').toString('base64')}`)
  })

  it('refuses both kinds of credentials at once, or half a user', () => {
    const parse = (extra: object) => ntfy.config.safeParse({ topic: 'guard-alerts-x7', ...extra }).success
    expect(parse({ accessToken: 'tk_x', username: 'phil', password: 'p' })).toBe(false)
    expect(parse({ username: 'phil' })).toBe(false)
    expect(parse({ topic: 'no spaces allowed' })).toBe(false)
    expect(ntfy.config.parse({ topic: 'guard-alerts-x7' }).serverUrl).toBe('https://ntfy.sh')
  })

  it('keeps the message under the 4096 bytes ntfy would turn into an attachment', async () => {
    await ntfy.send(sampleAlert('opened', { text: 'é'.repeat(5000) }), config(), providerTestIO())
    expect(Buffer.byteLength(String(fake.requests[0]?.body.message))).toBeLessThanOrEqual(4096)
    expect(clipBytes('short', 4096)).toBe('short')
    expect(Buffer.byteLength(clipBytes('a'.repeat(100_000), 4096))).toBe(4096)
    expect(clipBytes('a€€', 6)).toBe('a…')
  })

  it('retries a 429 (with Retry-After when sent), marks 401/403 permanent and retries a 5xx', async () => {
    answer = { status: 429, json: { code: 42901, http: 429, error: 'limit reached: too many requests' } }
    const limited = await ntfy.send(sampleAlert(), config(), providerTestIO())
    expect(limited).toMatchObject({ ok: false, statusCode: 429 })
    expect(limited).not.toHaveProperty('permanent')
    answer = { status: 429, headers: { 'retry-after': '12' } }
    expect(await ntfy.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ retryAfterMs: 12_000 })
    for (const status of [401, 403]) {
      answer = { status, json: { code: 40301, http: 403, error: 'forbidden' } }
      expect(await ntfy.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ permanent: true })
    }
    answer = { status: 500 }
    expect(await ntfy.send(sampleAlert(), config(), providerTestIO())).not.toHaveProperty('permanent')
  })

  it('keeps the token and password secret, the server URL vetted', () => {
    expect(ntfy.secretFields).toEqual(['accessToken', 'password'])
    expect(ntfy.urlFields).toEqual(['serverUrl'])
  })
})
