import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { BODY_MAX, templatedWebhook } from './index.ts'

const SECRET = 'Bearer sk_live_never_shown_4f9a'

const JSON_TEMPLATE = `{
  "summary": {{ headline | json }},
  "details": {{ text | json }},
  "severity": "{{ severity }}",
  "incident": {{ incident.id | json }},
  "ack": {{ acknowledgeUrl | json }},
  "items": [{% for item in items %}{{ item.title | json }}{% unless forloop.last %},{% endunless %}{% endfor %}]
}`

describe('templated webhook provider', () => {
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let answer: FakeAnswer = { status: 204 }
  const config = (extra: object = {}) =>
    templatedWebhook.config.parse({
      url: `${fake.url}/hooks/guard`,
      headers: { 'X-Source': 'guard' },
      secretHeaders: { Authorization: SECRET },
      bodyTemplate: JSON_TEMPLATE,
      ...extra,
    })

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    fake.requests.length = 0
    answer = { status: 204 }
  })

  it('renders a JSON body template exactly, JSON-encoding values with the json filter', async () => {
    const alert = sampleAlert('opened', { text: 'Said "no" \\ twice\nthen quit' })
    expect(await templatedWebhook.send(alert, config(), providerTestIO())).toEqual({ ok: true, statusCode: 204 })
    const [request] = fake.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/hooks/guard')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.raw).toBe(`{
  "summary": "Checkout API is down",
  "details": "Said \\"no\\" \\\\ twice\\nthen quit",
  "severity": "critical",
  "incident": "inc_1",
  "ack": "http://127.0.0.1:4000/ack/tok_1",
  "items": []
}`)
    expect(request?.body).toMatchObject({
      details: 'Said "no" \\ twice\nthen quit',
      ack: 'http://127.0.0.1:4000/ack/tok_1',
    })
  })

  it('renders a resolution and a digest’s items from the same template', async () => {
    await templatedWebhook.send(sampleAlert('resolved'), config(), providerTestIO())
    expect(fake.requests[0]?.body).toEqual({
      summary: 'Resolved: Checkout API is down',
      details: 'Recovered after 4m 10s: up from 3 of 3 locations',
      severity: 'critical',
      incident: 'inc_1',
      ack: null,
      items: [],
    })
    const item = {
      kind: 'opened' as const,
      title: 'DB "primary" down',
      text: 'x',
      occurredAt: '2026-11-27T01:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await templatedWebhook.send(
      sampleAlert('digest', { incident: undefined, items: [item, { ...item, title: 'API down' }] }),
      config(),
      providerTestIO(),
    )
    expect(fake.requests[1]?.body).toMatchObject({ incident: null, items: ['DB "primary" down', 'API down'] })
  })

  it('renders a form-style text template exactly, with the method and content type chosen', async () => {
    await templatedWebhook.send(
      sampleAlert('opened'),
      config({
        method: 'PUT',
        contentType: 'application/x-www-form-urlencoded',
        bodyTemplate: 'title={{ headline | url_encode }}&state={{ kind }}&link={{ link | url_encode }}',
      }),
      providerTestIO(),
    )
    const [request] = fake.requests
    expect(request?.method).toBe('PUT')
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(request?.raw).toBe(
      'title=Checkout+API+is+down&state=opened&link=http%3A%2F%2F127.0.0.1%3A4000%2Fconsole%2Fincidents%2Finc_1',
    )
  })

  it('refuses a template that does not parse, uses an unknown filter or includes a file, naming the field', () => {
    for (const bodyTemplate of [
      '{% if %}',
      '{{ title | shout }}',
      '{% include "package.json" %}',
      '{% render "x" %}',
    ]) {
      const result = templatedWebhook.config.safeParse({ url: 'https://example.com/hook', bodyTemplate })
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.path).toEqual(['bodyTemplate'])
      expect(result.error?.issues[0]?.message).toMatch(/^template: /)
    }
  })

  it('refuses a template that renders past the size cap or loops without end', () => {
    const huge = templatedWebhook.config.safeParse({
      url: 'https://example.com/hook',
      bodyTemplate: `{% for i in (1..${BODY_MAX}) %}xx{% endfor %}`,
    })
    expect(huge.success).toBe(false)
    const endless = templatedWebhook.config.safeParse({
      url: 'https://example.com/hook',
      bodyTemplate: '{% for i in (1..100000000) %}x{% endfor %}',
    })
    expect(endless.success).toBe(false)
  })

  it('fails permanently, without sending, when a stored template cannot render', async () => {
    const broken = { ...config(), bodyTemplate: '{% include "package.json" %}' }
    const result = await templatedWebhook.send(sampleAlert(), broken, providerTestIO())
    expect(result).toMatchObject({ ok: false, statusCode: null, permanent: true })
    expect(fake.requests).toHaveLength(0)
  })

  it('sends a secret header, which no description, validation error or delivery error shows', async () => {
    answer = { status: 401, json: { error: 'unauthorized' } }
    const result = await templatedWebhook.send(sampleAlert(), config(), providerTestIO())
    expect(fake.requests[0]?.headers.authorization).toBe(SECRET)
    expect(fake.requests[0]?.headers['x-source']).toBe('guard')
    expect(result).toMatchObject({ ok: false, permanent: true })
    expect(JSON.stringify(result)).not.toContain('sk_live')

    const invalid = templatedWebhook.config.safeParse({
      url: 'https://example.com/hook',
      secretHeaders: { Authorization: `${SECRET}\r\nX-Injected: 1`, Host: SECRET },
      headers: { authorization: 'dup' },
      bodyTemplate: '{% if %}',
    })
    expect(invalid.success).toBe(false)
    expect(JSON.stringify(invalid.error?.issues)).not.toContain('sk_live')
    expect(JSON.stringify(z.toJSONSchema(templatedWebhook.config, { io: 'input' }))).not.toContain('sk_live')
    expect(templatedWebhook.secretFields).toEqual(['secretHeaders'])
  })

  it('retries a 429 after Retry-After and a 5xx', async () => {
    answer = { status: 429, headers: { 'retry-after': '5' } }
    expect(await templatedWebhook.send(sampleAlert(), config(), providerTestIO())).toMatchObject({
      ok: false,
      retryAfterMs: 5000,
    })
    answer = { status: 502 }
    expect(await templatedWebhook.send(sampleAlert(), config(), providerTestIO())).not.toHaveProperty('permanent')
  })
})
