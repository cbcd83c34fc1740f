import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { mattermost } from './index.ts'

describe('mattermost: incoming webhook', () => {
  let answer: FakeAnswer = { status: 200 }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const config = (extra: Record<string, unknown> = {}) =>
    mattermost.config.parse({ webhookUrl: `${fake.url}/hooks/xk3n9ihgsbfqd8bq1sanm9q3me`, ...extra })
  const send = (alert = sampleAlert('opened'), extra: Record<string, unknown> = {}) =>
    mattermost.send(alert, config(extra), providerTestIO())
  const last = () => fake.requests.at(-1)!
  const attachment = () => (last().body as unknown as { attachments: Array<Record<string, unknown>> }).attachments[0]!

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 200 }
  })

  it('posts an opened alert to the hook as text and one red attachment with both links', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 200 })
    expect(last().method).toBe('POST')
    expect(last().path).toBe('/hooks/xk3n9ihgsbfqd8bq1sanm9q3me')
    expect(last().headers['content-type']).toBe('application/json')
    expect(last().body).toEqual({ text: 'Checkout API is down', attachments: [expect.any(Object)] })
    expect(attachment()).toMatchObject({
      fallback: 'Checkout API is down: Down from eu, us (2 of 3 locations): Connection refused',
      color: '#e01e5a',
      title: 'Checkout API is down',
      title_link: 'http://127.0.0.1:4000/console/incidents/inc_1',
      fields: [
        { short: true, title: 'Severity', value: 'critical' },
        { short: true, title: 'Cause', value: 'down' },
      ],
    })
    expect(attachment().text).toBe(
      'Down from eu, us (2 of 3 locations): Connection refused\n\n' +
        '[Open in Guard](http://127.0.0.1:4000/console/incidents/inc_1) · [Acknowledge](http://127.0.0.1:4000/ack/tok_1)',
    )
  })

  it('a resolved alert is a green attachment without an Acknowledge link', async () => {
    await send(sampleAlert('resolved'))
    expect(attachment()).toMatchObject({ color: '#2eb67d', title: 'Resolved: Checkout API is down' })
    expect(attachment().text).not.toContain('Acknowledge')
  })

  it('sends the configured name, icon and channel overrides', async () => {
    await send(sampleAlert('opened'), {
      username: 'Guard',
      iconUrl: 'https://guard.example/icon.png',
      channel: 'ops-alerts',
    })
    expect(last().body).toMatchObject({
      username: 'Guard',
      icon_url: 'https://guard.example/icon.png',
      channel: 'ops-alerts',
    })
  })

  it('a digest lists its items', async () => {
    const item = {
      kind: 'opened' as const,
      title: 'Search is down',
      text: 'Timeout',
      occurredAt: '2026-11-27T02:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await send(sampleAlert('digest', { incident: undefined, items: Array(21).fill(item) }))
    expect(attachment().text).toContain('- **Search is down**: Timeout')
    expect(attachment().text).toContain('- …and 1 more')
  })

  it('a 429 is retried after Retry-After', async () => {
    answer = { status: 429, headers: { 'retry-after': '1' }, json: { message: 'too many requests' } }
    expect(await send()).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 1000 })
  })

  it.each([400, 401, 403, 404])('a %i (bad body, disabled or deleted hook) is permanent', async (status) => {
    answer = { status, json: { id: 'web.incoming_webhook.invalid.app_error', status_code: status } }
    expect(await send()).toMatchObject({ ok: false, statusCode: status, permanent: true })
  })

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 500 }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 500 })
    expect(result).not.toHaveProperty('permanent')
  })
})
