import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { discord } from './index.ts'

describe('discord: execute webhook', () => {
  let answer: FakeAnswer = { status: 200, json: { id: '1' } }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const config = (extra: Record<string, unknown> = {}) =>
    discord.config.parse({ webhookUrl: `${fake.url}/api/webhooks/1234567890/hook-token`, ...extra })
  const send = (alert = sampleAlert('opened'), extra: Record<string, unknown> = {}) =>
    discord.send(alert, config(extra), providerTestIO())
  const last = () => fake.requests.at(-1)!
  const embed = () => (last().body as unknown as { embeds: Array<Record<string, unknown>> }).embeds[0]!

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 200, json: { id: '1' } }
  })

  it('posts an opened alert to the webhook URL with wait=true as one red embed with both links', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 200 })
    const request = last()
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/api/webhooks/1234567890/hook-token')
    expect(request.query.get('wait')).toBe('true')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.body).toMatchObject({ username: 'Guard', allowed_mentions: { parse: [] } })
    expect(embed()).toMatchObject({
      title: 'Checkout API is down',
      url: 'http://127.0.0.1:4000/console/incidents/inc_1',
      color: 0xe01e5a,
      timestamp: '2026-11-27T03:00:00.000Z',
      fields: [
        { name: 'Severity', value: 'critical', inline: true },
        { name: 'Cause', value: 'down', inline: true },
        { name: 'Detected', value: '<t:1795748150:f>', inline: true },
      ],
    })
    expect(embed().description).toContain('Connection refused')
    expect(embed().description).toContain('[Acknowledge](http://127.0.0.1:4000/ack/tok_1)')
    expect(embed().description).toContain('[Open in Guard](http://127.0.0.1:4000/console/incidents/inc_1)')
  })

  it('a resolved alert is a green embed titled Resolved, without an Acknowledge link', async () => {
    await send(sampleAlert('resolved'))
    expect(embed()).toMatchObject({ title: 'Resolved: Checkout API is down', color: 0x2eb67d })
    expect(embed().description).not.toContain('Acknowledge')
  })

  it('escapes markdown in alert text so it cannot restyle the message or mask a link', async () => {
    await send(sampleAlert('opened', { text: 'see [here](https://evil.example) *now*' }))
    expect(embed().description).toContain('see \\[here\\]\\(https://evil.example\\) \\*now\\*')
  })

  it('a digest lists its items, and a long text is clipped to what an embed holds', async () => {
    const item = {
      kind: 'opened' as const,
      title: 'Search is down',
      text: 'Timeout',
      occurredAt: '2026-11-27T02:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await send(sampleAlert('digest', { text: 'x'.repeat(10_000), items: Array.from({ length: 25 }, () => item) }))
    const description = embed().description as string
    expect(description).toContain('• **Search is down**: Timeout')
    expect(description).toContain('…and 5 more')
    expect(description.length).toBeLessThanOrEqual(4096)
  })

  it('posts into the configured thread and under the configured name', async () => {
    await send(sampleAlert('opened'), { threadId: '112233445566778899', username: 'Uptime' })
    expect(last().query.get('thread_id')).toBe('112233445566778899')
    expect(last().body).toMatchObject({ username: 'Uptime' })
  })

  it('refuses a name Discord would reject', () => {
    expect(
      discord.config.safeParse({ webhookUrl: 'https://discord.com/api/webhooks/1/t', username: 'My Discord bot' })
        .success,
    ).toBe(false)
  })

  it('a 429 is retried after the body retry_after, which is more precise than the header', async () => {
    answer = {
      status: 429,
      headers: { 'retry-after': '2' },
      json: { message: 'You are being rate limited.', retry_after: 1.337, global: false },
    }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 1337 })
    expect(result).not.toHaveProperty('permanent')
  })

  it('a 429 without a body still honours the Retry-After header', async () => {
    answer = { status: 429, headers: { 'retry-after': '3' } }
    expect(await send()).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 3000 })
  })

  it.each([400, 401, 403, 404])('a %i (bad body, deleted or wrong webhook) is permanent', async (status) => {
    answer = { status, json: { message: 'Unknown Webhook', code: 10015 } }
    expect(await send()).toMatchObject({ ok: false, statusCode: status, permanent: true })
  })

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 502, json: { message: 'Bad gateway' } }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 502 })
    expect(result).not.toHaveProperty('permanent')
  })
})
