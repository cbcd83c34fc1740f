import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { rocketchat } from './index.ts'

describe('rocketchat: incoming webhook integration', () => {
  let answer: FakeAnswer = { status: 200, json: { success: true } }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const config = (extra: Record<string, unknown> = {}) =>
    rocketchat.config.parse({ webhookUrl: `${fake.url}/hooks/6a1f2c/Zk9xTq3b`, ...extra })
  const send = (alert = sampleAlert('opened'), extra: Record<string, unknown> = {}) =>
    rocketchat.send(alert, config(extra), providerTestIO())
  const last = () => fake.requests.at(-1)!
  const attachment = () => (last().body as unknown as { attachments: Array<Record<string, unknown>> }).attachments[0]!

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 200, json: { success: true } }
  })

  it('posts an opened alert to the hook as text and one red attachment with both links', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 200 })
    expect(last().method).toBe('POST')
    expect(last().path).toBe('/hooks/6a1f2c/Zk9xTq3b')
    expect(last().headers['content-type']).toBe('application/json')
    expect(last().body).toEqual({ text: 'Checkout API is down', attachments: [expect.any(Object)] })
    expect(attachment()).toEqual({
      title: 'Checkout API is down',
      title_link: 'http://127.0.0.1:4000/console/incidents/inc_1',
      text:
        'Down from eu, us (2 of 3 locations): Connection refused\n\n' +
        '[Open in Guard](http://127.0.0.1:4000/console/incidents/inc_1) · [Acknowledge](http://127.0.0.1:4000/ack/tok_1)',
      color: '#e01e5a',
      fields: [
        { short: true, title: 'Severity', value: 'critical' },
        { short: true, title: 'Cause', value: 'down' },
        { short: true, title: 'When', value: '2026-11-27T03:00:00.000Z' },
      ],
    })
  })

  it('a resolved alert is a green attachment without an Acknowledge link', async () => {
    await send(sampleAlert('resolved'))
    expect(attachment()).toMatchObject({ color: '#2eb67d', title: 'Resolved: Checkout API is down' })
    expect(attachment().text).not.toContain('Acknowledge')
  })

  it('sends the configured alias, emoji and channel', async () => {
    await send(sampleAlert('opened'), { alias: 'Guard', emoji: ':rotating_light:', channel: '#ops' })
    expect(last().body).toMatchObject({ alias: 'Guard', emoji: ':rotating_light:', channel: '#ops' })
  })

  it('refuses an emoji or channel Rocket.Chat would not understand', () => {
    const url = 'https://chat.example/hooks/a/b'
    expect(rocketchat.config.safeParse({ webhookUrl: url, emoji: 'siren' }).success).toBe(false)
    expect(rocketchat.config.safeParse({ webhookUrl: url, channel: 'ops' }).success).toBe(false)
  })

  it('a 429 is retried after Retry-After', async () => {
    answer = { status: 429, headers: { 'retry-after': '5' }, json: { success: false, error: 'Too many requests' } }
    expect(await send()).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 5000 })
  })

  it.each([400, 401, 403, 404])('a %i (bad body, wrong or disabled integration) is permanent', async (status) => {
    answer = { status, json: { success: false, error: 'Invalid integration id or token provided.' } }
    expect(await send()).toMatchObject({ ok: false, statusCode: status, permanent: true })
  })

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 503 }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 503 })
    expect(result).not.toHaveProperty('permanent')
  })
})
