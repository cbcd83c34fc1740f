import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { OPSGENIE_TOKEN_HEADER, opsgenie } from './index.ts'

const API_KEY = 'eb243592-faa2-4ba2-a551q-1afdf565c889'
const accepted: FakeAnswer = {
  status: 202,
  json: { result: 'Request will be processed', took: 0.302, requestId: '43a29c5c-3dbf-4fa4-9c26-f4f71023e120' },
}

describe('Opsgenie provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer = accepted
  const config = () => opsgenie.config.parse({ apiKey: API_KEY, apiUrl: fake.url })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = accepted
  })

  it('creates an alert with the incident as alias, GenieKey auth, priority by severity', async () => {
    expect(await opsgenie.send(sampleAlert('opened'), config(), providerTestIO())).toEqual({
      ok: true,
      statusCode: 202,
    })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/v2/alerts')
    expect(request?.headers.authorization).toBe(`GenieKey ${API_KEY}`)
    expect(request?.body).toEqual({
      message: 'Checkout API is down',
      alias: 'guard-inc_1',
      description:
        'Down from eu, us (2 of 3 locations): Connection refused\n\nOpen in Guard: http://127.0.0.1:4000/console/incidents/inc_1\nAcknowledge: http://127.0.0.1:4000/ack/tok_1',
      priority: 'P1',
      details: {
        kind: 'opened',
        event: 'incident.opened',
        link: 'http://127.0.0.1:4000/console/incidents/inc_1',
        incident: 'inc_1',
        cause: 'down',
        monitor: 'svc_1',
        monitorKind: 'service',
        acknowledgeUrl: 'http://127.0.0.1:4000/ack/tok_1',
      },
      source: 'Guard',
      tags: ['guard', 'critical', 'service'],
    })
  })

  it('closes and acknowledges the alert it created, by the same alias (identifierType=alias)', async () => {
    const io = providerTestIO()
    await opsgenie.send(sampleAlert('opened'), config(), io)
    await opsgenie.send(sampleAlert('acknowledged'), config(), io)
    await opsgenie.send(sampleAlert('resolved'), config(), io)
    const [create, acknowledge, close] = fake.requests
    expect(acknowledge?.path).toBe(`/v2/alerts/${create?.body.alias}/acknowledge`)
    expect(acknowledge?.query.get('identifierType')).toBe('alias')
    expect(close?.method).toBe('POST')
    expect(close?.path).toBe('/v2/alerts/guard-inc_1/close')
    expect(close?.query.get('identifierType')).toBe('alias')
    expect(close?.headers.authorization).toBe(`GenieKey ${API_KEY}`)
    expect(close?.body).toEqual({
      user: 'Guard',
      source: 'Guard',
      note: 'Recovered after 4m 10s: up from 3 of 3 locations',
    })
  })

  it('clips the message to 130 characters and maps lower severities to P2..P4', async () => {
    await opsgenie.send(
      sampleAlert('opened', { title: 'y'.repeat(500), severity: 'medium' }),
      config(),
      providerTestIO(),
    )
    expect(fake.requests[0]?.body.message).toHaveLength(130)
    expect(fake.requests[0]?.body.priority).toBe('P3')
  })

  it('chooses the API host by region unless apiUrl overrides it', () => {
    const url = (region: 'us' | 'eu') =>
      opsgenie.request(sampleAlert(), opsgenie.config.parse({ apiKey: API_KEY, region }), providerTestIO()).url
    expect(url('us')).toBe('https://api.opsgenie.com/v2/alerts')
    expect(url('eu')).toBe('https://api.eu.opsgenie.com/v2/alerts')
  })

  it('retries a 429 after the throttle period Opsgenie states', async () => {
    answer = { status: 429, headers: { 'x-ratelimit-state': 'THROTTLED', 'x-ratelimit-period-in-sec': '60' } }
    const result = await opsgenie.send(sampleAlert(), config(), providerTestIO())
    expect(result).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 60_000 })
    expect(result).not.toHaveProperty('permanent')
  })

  it('marks 401, 403 and 422 permanent and retries a 5xx', async () => {
    for (const status of [401, 403, 422]) {
      answer = { status, json: { message: 'Key format is not valid!', took: 0.001 } }
      expect(await opsgenie.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ permanent: true })
    }
    answer = { status: 503 }
    expect(await opsgenie.send(sampleAlert(), config(), providerTestIO())).not.toHaveProperty('permanent')
  })
})

describe('Opsgenie outgoing webhook callback', () => {
  const token = 'tok_0123456789abcdef'
  const config = opsgenie.config.parse({ apiKey: API_KEY, callbackToken: token })
  const body = (action: string, source = 'web') =>
    JSON.stringify({
      action,
      alert: {
        alertId: '44f717bf',
        message: 'Checkout API is down',
        alias: 'guard-inc_1',
        username: 'ada@example.com',
      },
      source: { name: source, type: 'web' },
      integrationName: 'Guard callback',
    })

  it('maps Acknowledge and Close to the alert’s alias, when the token header matches', () => {
    expect(
      opsgenie.callback?.({ headers: { [OPSGENIE_TOKEN_HEADER]: token }, rawBody: body('Acknowledge') }, config),
    ).toEqual({ action: 'acknowledge', dedupKey: 'guard-inc_1', by: 'Opsgenie: ada@example.com' })
    expect(
      opsgenie.callback?.({ headers: { [OPSGENIE_TOKEN_HEADER]: token }, rawBody: body('Close') }, config),
    ).toMatchObject({
      action: 'resolve',
      dedupKey: 'guard-inc_1',
    })
  })

  it('ignores a call without the token, with another token, or when no token is configured', () => {
    expect(opsgenie.callback?.({ headers: {}, rawBody: body('Close') }, config)).toBeUndefined()
    expect(
      opsgenie.callback?.({ headers: { [OPSGENIE_TOKEN_HEADER]: 'tok_guessed' }, rawBody: body('Close') }, config),
    ).toBeUndefined()
    const unprotected = opsgenie.config.parse({ apiKey: API_KEY })
    expect(
      opsgenie.callback?.({ headers: { [OPSGENIE_TOKEN_HEADER]: token }, rawBody: body('Close') }, unprotected),
    ).toBeUndefined()
  })

  it('ignores other actions and the echo of Guard’s own close', () => {
    const headers = { [OPSGENIE_TOKEN_HEADER]: token }
    expect(opsgenie.callback?.({ headers, rawBody: body('AddNote') }, config)).toBeUndefined()
    expect(opsgenie.callback?.({ headers, rawBody: body('Close', 'Guard') }, config)).toBeUndefined()
    expect(opsgenie.callback?.({ headers, rawBody: 'not json' }, config)).toBeUndefined()
  })

  it('keeps the API key and callback token secret, the API URL vetted', () => {
    expect(opsgenie.secretFields).toEqual(['apiKey', 'callbackToken'])
    expect(opsgenie.urlFields).toEqual(['apiUrl'])
  })
})
