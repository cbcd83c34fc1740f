import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { googleChat } from './index.ts'

interface Message {
  text: string
  thread?: { threadKey: string }
  cardsV2: Array<{
    cardId: string
    card: {
      header: { title: string; subtitle: string }
      sections: Array<{ header?: string; widgets: Array<Record<string, unknown>> }>
    }
  }>
}

describe('google-chat: incoming webhook', () => {
  let answer: FakeAnswer = { status: 200, json: { name: 'spaces/AAA/messages/1' } }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const config = (extra: Record<string, unknown> = {}) =>
    googleChat.config.parse({ webhookUrl: `${fake.url}/v1/spaces/AAA/messages?key=k3y&token=t0k`, ...extra })
  const send = (alert = sampleAlert('opened'), extra: Record<string, unknown> = {}) =>
    googleChat.send(alert, config(extra), providerTestIO())
  const last = () => fake.requests.at(-1)!
  const message = () => last().body as unknown as Message
  const card = () => message().cardsV2[0]!.card
  const buttons = () =>
    (card().sections.at(-1)!.widgets[0] as { buttonList: { buttons: Array<{ text: string; onClick: unknown }> } })
      .buttonList.buttons

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 200, json: { name: 'spaces/AAA/messages/1' } }
  })

  it('posts an opened alert to the webhook URL as text and a card, in the incident thread', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 200 })
    expect(last().method).toBe('POST')
    expect(last().path).toBe('/v1/spaces/AAA/messages')
    expect(Object.fromEntries(last().query)).toEqual({
      key: 'k3y',
      token: 't0k',
      messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD',
    })
    expect(last().headers['content-type']).toBe('application/json')
    expect(message()).toMatchObject({ text: 'Checkout API is down', thread: { threadKey: 'guard-inc_1' } })
    expect(message().cardsV2[0]!.cardId).toBe('guard-alert')
    expect(card().header).toEqual({ title: 'Checkout API is down', subtitle: 'critical · incident.opened' })
    expect(card().sections[0]!.widgets[0]).toEqual({
      textParagraph: {
        text: '<font color="#e01e5a"><b>●</b></font> Down from eu, us (2 of 3 locations): Connection refused',
      },
    })
    expect(buttons()).toEqual([
      { text: 'Open in Guard', onClick: { openLink: { url: 'http://127.0.0.1:4000/console/incidents/inc_1' } } },
      { text: 'Acknowledge', onClick: { openLink: { url: 'http://127.0.0.1:4000/ack/tok_1' } } },
    ])
  })

  it("a resolved alert is green and replies in the same thread, keyed by the incident's dedup key", async () => {
    await send(sampleAlert('resolved'))
    expect(message()).toMatchObject({ text: 'Resolved: Checkout API is down', thread: { threadKey: 'guard-inc_1' } })
    expect(JSON.stringify(card().sections[0])).toContain('#2eb67d')
    expect(buttons().map((b) => b.text)).toEqual(['Open in Guard'])
  })

  it('without threading, or without an incident, starts a new thread', async () => {
    await send(sampleAlert('opened'), { threadPerIncident: false })
    expect(last().query.has('messageReplyOption')).toBe(false)
    expect(message()).not.toHaveProperty('thread')
    await send(sampleAlert('test', { incident: undefined }))
    expect(message()).not.toHaveProperty('thread')
  })

  it('escapes alert text, which cards read as HTML', async () => {
    await send(sampleAlert('opened', { text: '<a href="x">click</a> & go' }))
    expect(JSON.stringify(card().sections[0]!.widgets[0])).toContain(
      '&lt;a href=&quot;x&quot;&gt;click&lt;/a&gt; &amp; go',
    )
  })

  it('a digest lists its items in their own section', async () => {
    const item = {
      kind: 'opened' as const,
      title: 'Search is down',
      text: 'Timeout',
      occurredAt: '2026-11-27T02:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await send(sampleAlert('digest', { incident: undefined, items: [item, item] }))
    expect(card().sections[1]).toEqual({
      header: 'Alerts',
      widgets: [
        { decoratedText: { topLabel: 'Search is down', text: 'Timeout', wrapText: true } },
        { decoratedText: { topLabel: 'Search is down', text: 'Timeout', wrapText: true } },
      ],
    })
  })

  it('a 429 is retried, after Retry-After when given', async () => {
    answer = { status: 429, headers: { 'retry-after': '30' }, json: { error: { status: 'RESOURCE_EXHAUSTED' } } }
    expect(await send()).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 30_000 })
  })

  it.each([400, 401, 403, 404])('a %i (bad card, revoked webhook, deleted space) is permanent', async (status) => {
    answer = { status, json: { error: { code: status, status: 'PERMISSION_DENIED' } } }
    expect(await send()).toMatchObject({ ok: false, statusCode: status, permanent: true })
  })

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 500, json: { error: { status: 'INTERNAL' } } }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 500 })
    expect(result).not.toHaveProperty('permanent')
  })
})
