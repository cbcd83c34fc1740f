import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { pushover } from './index.ts'

const TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi'
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG'
const sent: FakeAnswer = { status: 200, json: { status: 1, request: '647d2300-702c-4b38-8b2f-d56326ae460b' } }

describe('Pushover provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer = sent
  const config = (extra: object = {}) => pushover.config.parse({ apiUrl: fake.url, token: TOKEN, user: USER, ...extra })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = sent
  })

  it('posts the documented form to /1/messages.json: token, user, title, HTML message, url, priority', async () => {
    expect(await pushover.send(sampleAlert('opened'), config(), providerTestIO())).toEqual({
      ok: true,
      statusCode: 200,
    })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/1/messages.json')
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(request?.body).toEqual({
      token: TOKEN,
      user: USER,
      title: 'Checkout API is down',
      message:
        '<font color="#e01e5a">■</font> Down from eu, us (2 of 3 locations): Connection refused\n<a href="http://127.0.0.1:4000/ack/tok_1">Acknowledge</a>',
      html: '1',
      url: 'http://127.0.0.1:4000/console/incidents/inc_1',
      url_title: 'Open in Guard',
      priority: '1',
      timestamp: String(Date.parse('2026-11-27T03:00:00.000Z') / 1000),
    })
  })

  it('sends a resolution in green at normal priority, without an Acknowledge link', async () => {
    await pushover.send(sampleAlert('resolved'), config(), providerTestIO())
    expect(fake.requests[0]?.body).toMatchObject({
      title: 'Resolved: Checkout API is down',
      message: '<font color="#2eb67d">■</font> Recovered after 4m 10s: up from 3 of 3 locations',
      priority: '0',
    })
  })

  it('sends critical alerts at emergency priority with retry and expire only when asked to', async () => {
    await pushover.send(sampleAlert('opened'), config({ emergency: true, retry: 120 }), providerTestIO())
    expect(fake.requests[0]?.body).toMatchObject({ priority: '2', retry: '120', expire: '3600' })
    await pushover.send(sampleAlert('opened', { severity: 'high' }), config({ emergency: true }), providerTestIO())
    expect(fake.requests[1]?.body.priority).toBe('1')
    expect(fake.requests[1]?.body).not.toHaveProperty('retry')
    expect(pushover.config.safeParse({ token: TOKEN, user: USER, retry: 10 }).success).toBe(false)
  })

  it('passes device and sound when set', async () => {
    await pushover.send(sampleAlert(), config({ device: 'iphone,droid4', sound: 'siren' }), providerTestIO())
    expect(fake.requests[0]?.body).toMatchObject({ device: 'iphone,droid4', sound: 'siren' })
  })

  it('escapes quoted text and keeps the message within 1024 characters', async () => {
    await pushover.send(sampleAlert('opened', { text: `<b>&${'x'.repeat(3000)}` }), config(), providerTestIO())
    const message = String(fake.requests[0]?.body.message)
    expect(message.length).toBeLessThanOrEqual(1024)
    expect(message).toContain('&lt;b&gt;&amp;xxx')
    expect(message).toMatch(/…\n<a href="[^"]+">Acknowledge<\/a>$/)
  })

  it('marks a 400 with status 0 permanent, retries a 429 (Retry-After honoured) and a 5xx', async () => {
    answer = {
      status: 400,
      json: { user: 'invalid', errors: ['user identifier is invalid'], status: 0, request: 'r1' },
    }
    const invalid = await pushover.send(sampleAlert(), config(), providerTestIO())
    expect(invalid).toMatchObject({ ok: false, statusCode: 400, permanent: true })
    expect(invalid.ok || invalid.error).toContain('user identifier is invalid')
    answer = { status: 429, headers: { 'retry-after': '60' }, json: { status: 0, errors: ['over the limit'] } }
    const limited = await pushover.send(sampleAlert(), config(), providerTestIO())
    expect(limited).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 60_000 })
    expect(limited).not.toHaveProperty('permanent')
    answer = { status: 500 }
    expect(await pushover.send(sampleAlert(), config(), providerTestIO())).not.toHaveProperty('permanent')
  })

  it('keeps the application token and user key secret, the API URL vetted', () => {
    expect(pushover.secretFields).toEqual(['token', 'user'])
    expect(pushover.urlFields).toEqual(['apiUrl'])
    expect(pushover.config.parse({ token: TOKEN, user: USER }).apiUrl).toBe('https://api.pushover.net')
  })
})
