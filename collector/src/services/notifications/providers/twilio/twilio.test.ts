import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { twilio } from './index.ts'

const SID = 'AC0123456789abcdef0123456789abcdef'
const TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed'
const queued: FakeAnswer = { status: 201, json: { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued' } }

describe('Twilio SMS provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer = queued
  const config = (extra: object = { from: '+15005550006' }) =>
    twilio.config.parse({ apiUrl: fake.url, accountSid: SID, authToken: TOKEN, to: '+14155552671', ...extra })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = queued
  })

  it('creates a Message under the account with Basic auth and the To/From/Body form', async () => {
    expect(await twilio.send(sampleAlert('opened'), config(), providerTestIO())).toEqual({ ok: true, statusCode: 201 })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`)
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`)
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(request?.body).toEqual({
      To: '+14155552671',
      From: '+15005550006',
      Body: 'Guard: Checkout API is down\nhttp://127.0.0.1:4000/console/incidents/inc_1\nAck: http://127.0.0.1:4000/ack/tok_1',
    })
  })

  it('texts a resolution as one line and the link, and can send through a Messaging Service', async () => {
    await twilio.send(
      sampleAlert('resolved'),
      config({ messagingServiceSid: 'MG0123456789abcdef0123456789abcdef' }),
      providerTestIO(),
    )
    expect(fake.requests[0]?.body).toEqual({
      To: '+14155552671',
      MessagingServiceSid: 'MG0123456789abcdef0123456789abcdef',
      Body: 'Guard: Resolved: Checkout API is down\nhttp://127.0.0.1:4000/console/incidents/inc_1',
    })
  })

  it('keeps the body to one short line and the links, under 1600 characters', async () => {
    await twilio.send(sampleAlert('opened', { title: `Multi\nline ${'z'.repeat(2000)}` }), config(), providerTestIO())
    const body = String(fake.requests[0]?.body.Body)
    expect(body.length).toBeLessThanOrEqual(1600)
    const [line] = body.split('\n')
    expect(line).toMatch(/^Guard: Multi line z+…$/)
    expect(line).toHaveLength(300)
  })

  it('needs exactly one of from and messagingServiceSid, and E.164 numbers', () => {
    const parse = (extra: object) =>
      twilio.config.safeParse({ accountSid: SID, authToken: TOKEN, to: '+14155552671', ...extra }).success
    expect(parse({})).toBe(false)
    expect(parse({ from: '+15005550006', messagingServiceSid: 'MG0123456789abcdef0123456789abcdef' })).toBe(false)
    expect(parse({ from: '+15005550006', to: '0415 555 2671' })).toBe(false)
    expect(parse({ from: 'GuardAlerts' })).toBe(true)
  })

  it('retries a 429 (error 20429), marks 400 and 401 permanent and retries a 5xx', async () => {
    answer = { status: 429, json: { code: 20429, message: 'Too Many Requests', status: 429 } }
    const limited = await twilio.send(sampleAlert(), config(), providerTestIO())
    expect(limited).toMatchObject({ ok: false, statusCode: 429 })
    expect(limited).not.toHaveProperty('permanent')
    answer = {
      status: 400,
      json: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
    }
    expect(await twilio.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ permanent: true })
    answer = { status: 401, json: { code: 20003, message: 'Authenticate', status: 401 } }
    expect(await twilio.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ permanent: true })
    answer = { status: 503 }
    expect(await twilio.send(sampleAlert(), config(), providerTestIO())).not.toHaveProperty('permanent')
  })

  it('keeps the auth token secret, the API URL vetted', () => {
    expect(twilio.secretFields).toEqual(['authToken'])
    expect(twilio.urlFields).toEqual(['apiUrl'])
  })
})
