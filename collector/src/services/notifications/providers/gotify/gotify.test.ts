import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { gotify } from './index.ts'

const created: FakeAnswer = {
  status: 200,
  json: { id: 25, appid: 5, message: '…', title: '…', priority: 10, date: '2026-11-27T03:00:00Z' },
}

describe('Gotify provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer = created
  const config = () => gotify.config.parse({ serverUrl: `${fake.url}/gotify/`, appToken: 'AzyoeNS.D4iJLVa' })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = created
  })

  it('posts a Markdown message to <server>/message with X-Gotify-Key, max priority and a click URL', async () => {
    expect(await gotify.send(sampleAlert('opened'), config(), providerTestIO())).toEqual({ ok: true, statusCode: 200 })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/gotify/message')
    expect(request?.headers['x-gotify-key']).toBe('AzyoeNS.D4iJLVa')
    expect(request?.query.has('token')).toBe(false)
    expect(request?.body).toEqual({
      title: 'Checkout API is down',
      message:
        'Down from eu, us (2 of 3 locations): Connection refused\n\n[Open in Guard](<http://127.0.0.1:4000/console/incidents/inc_1>) · [Acknowledge](<http://127.0.0.1:4000/ack/tok_1>)',
      priority: 10,
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'client::notification': { click: { url: 'http://127.0.0.1:4000/console/incidents/inc_1' } },
      },
    })
  })

  it('sends a resolution at normal priority, without an Acknowledge link', async () => {
    await gotify.send(sampleAlert('resolved'), config(), providerTestIO())
    expect(fake.requests[0]?.body).toMatchObject({
      title: 'Resolved: Checkout API is down',
      message:
        'Recovered after 4m 10s: up from 3 of 3 locations\n\n[Open in Guard](<http://127.0.0.1:4000/console/incidents/inc_1>)',
      priority: 5,
    })
  })

  it('escapes Markdown in what it quotes, so an error text cannot become a link', async () => {
    await gotify.send(
      sampleAlert('opened', { text: 'HTTP 500 [click](http://evil.example) *now*' }),
      config(),
      providerTestIO(),
    )
    expect(String(fake.requests[0]?.body.message)).toMatch(
      /^HTTP 500 \\\[click\\\]\(http:\/\/evil\.example\) \\\*now\\\*/,
    )
  })

  it('marks 401/403/400 permanent and retries a 429 or 5xx', async () => {
    for (const status of [400, 401, 403]) {
      answer = {
        status,
        json: {
          error: 'Unauthorized',
          errorCode: status,
          errorDescription: 'you need to provide a valid access token',
        },
      }
      expect(await gotify.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ ok: false, permanent: true })
    }
    answer = { status: 429, headers: { 'retry-after': '3' } }
    expect(await gotify.send(sampleAlert(), config(), providerTestIO())).toMatchObject({ retryAfterMs: 3000 })
    answer = { status: 500 }
    expect(await gotify.send(sampleAlert(), config(), providerTestIO())).not.toHaveProperty('permanent')
  })

  it('keeps the app token secret, the server URL vetted', () => {
    expect(gotify.secretFields).toEqual(['appToken'])
    expect(gotify.urlFields).toEqual(['serverUrl'])
  })
})
