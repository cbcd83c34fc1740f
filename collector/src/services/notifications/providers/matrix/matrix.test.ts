import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { matrix } from './index.ts'

const TOKEN = 'syt_Z3VhcmQ_bFhXbmZhcnR5_0abc12'

describe('matrix: client-server API send m.room.message', () => {
  let answer: FakeAnswer = { status: 200, json: { event_id: '$ev1' } }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const config = () =>
    matrix.config.parse({ homeserverUrl: fake.url, accessToken: TOKEN, roomId: '!abc123:example.org' })
  const send = (alert = sampleAlert('opened'), key = 'dlv_42') => matrix.send(alert, config(), providerTestIO(key))
  const last = () => fake.requests.at(-1)!
  const content = () => last().body as unknown as Record<string, unknown>

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 200, json: { event_id: '$ev1' } }
  })

  it('PUTs an opened alert into the encoded room with the delivery as transaction id and a Bearer token', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 200 })
    expect(last().method).toBe('PUT')
    expect(last().path).toBe('/_matrix/client/v3/rooms/%21abc123%3Aexample.org/send/m.room.message/dlv_42')
    expect(last().headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(last().headers['content-type']).toBe('application/json')
    expect(content()).toEqual({
      msgtype: 'm.text',
      body:
        'Checkout API is down\nDown from eu, us (2 of 3 locations): Connection refused\n' +
        'Open in Guard: http://127.0.0.1:4000/console/incidents/inc_1\nAcknowledge: http://127.0.0.1:4000/ack/tok_1',
      format: 'org.matrix.custom.html',
      formatted_body:
        '<h4><span data-mx-color="#e01e5a">●</span> Checkout API is down</h4>' +
        '<p>Down from eu, us (2 of 3 locations): Connection refused</p>' +
        '<p><a href="http://127.0.0.1:4000/console/incidents/inc_1">Open in Guard</a> · ' +
        '<a href="http://127.0.0.1:4000/ack/tok_1">Acknowledge</a></p>',
      'm.mentions': {},
    })
  })

  it('a retry of one delivery reuses its transaction id, so the homeserver stores one event', async () => {
    await send(sampleAlert('opened'), 'dlv_7')
    await send(sampleAlert('opened'), 'dlv_7')
    const [first, second] = fake.requests.slice(-2)
    expect(first!.path).toBe(second!.path)
    expect(first!.path.endsWith('/send/m.room.message/dlv_7')).toBe(true)
  })

  it('a resolved alert is green and has no Acknowledge link', async () => {
    await send(sampleAlert('resolved'))
    expect(content().formatted_body).toContain('<span data-mx-color="#2eb67d">●</span> Resolved: Checkout API is down')
    expect(content().body).not.toContain('Acknowledge')
  })

  it('escapes alert text in the HTML body and lists digest items', async () => {
    const item = {
      kind: 'opened' as const,
      title: 'Search <b>',
      text: 'Timeout & more',
      occurredAt: '2026-11-27T02:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await send(sampleAlert('digest', { incident: undefined, text: '<img src=x>', items: [item] }))
    expect(content().formatted_body).toContain('<p>&lt;img src=x&gt;</p>')
    expect(content().formatted_body).toContain('<ul><li><b>Search &lt;b&gt;</b>: Timeout &amp; more</li></ul>')
    expect(content().body).toContain('• Search <b>: Timeout & more')
  })

  it('a 429 M_LIMIT_EXCEEDED is retried after retry_after_ms', async () => {
    answer = { status: 429, json: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: 2500 } }
    expect(await send()).toEqual({
      ok: false,
      statusCode: 429,
      error: '429: M_LIMIT_EXCEEDED Too many requests',
      retryAfterMs: 2500,
    })
  })

  it.each([
    [401, 'M_UNKNOWN_TOKEN'],
    [403, 'M_FORBIDDEN'],
    [400, 'M_BAD_JSON'],
  ])('a %i %s is permanent, and names the error code without the token', async (status, errcode) => {
    answer = { status, json: { errcode, error: 'refused' } }
    const result = await send()
    expect(result).toMatchObject({
      ok: false,
      statusCode: status,
      permanent: true,
      error: `${status}: ${errcode} refused`,
    })
    expect(JSON.stringify(result)).not.toContain(TOKEN)
  })

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 502 }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 502 })
    expect(result).not.toHaveProperty('permanent')
  })

  it('refuses a room alias, which the send endpoint does not take', () => {
    expect(matrix.config.safeParse({ accessToken: TOKEN, roomId: '#ops:example.org' }).success).toBe(false)
    expect(matrix.config.parse({ accessToken: TOKEN, roomId: '!abc:example.org' }).homeserverUrl).toBe(
      'https://matrix-client.matrix.org',
    )
  })
})
