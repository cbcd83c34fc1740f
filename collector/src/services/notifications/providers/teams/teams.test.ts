import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { teams } from './index.ts'

interface Card {
  $schema: string
  type: string
  version: string
  body: Array<Record<string, unknown> & { items?: Array<Record<string, unknown>> }>
  actions: Array<Record<string, unknown>>
}

describe('teams: Workflows webhook with an Adaptive Card', () => {
  let answer: FakeAnswer = { status: 202 }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const webhookPath = '/workflows/abc/triggers/manual/paths/invoke'
  const config = () =>
    teams.config.parse({
      webhookUrl: `${fake.url}${webhookPath}?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig=s3cr3t`,
    })
  const send = (alert = sampleAlert('opened')) => teams.send(alert, config(), providerTestIO())
  const last = () => fake.requests.at(-1)!
  const card = () => (last().body as unknown as { attachments: Array<{ content: Card }> }).attachments[0]!.content

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 202 }
  })

  it('posts an opened alert to the workflow URL as a message with one Adaptive Card attachment', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 202 })
    expect(last().method).toBe('POST')
    expect(last().path).toBe(webhookPath)
    expect(last().query.get('sig')).toBe('s3cr3t')
    expect(last().headers['content-type']).toBe('application/json')
    expect(last().body).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }],
    })
    expect(card()).toMatchObject({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
    })
    expect(card().body[0]).toMatchObject({
      type: 'Container',
      style: 'attention',
      items: [{ type: 'TextBlock', text: 'Checkout API is down', weight: 'Bolder' }],
    })
    expect(card().body[1]).toMatchObject({ type: 'TextBlock', text: expect.stringContaining('Connection refused') })
    expect(card().actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open in Guard', url: 'http://127.0.0.1:4000/console/incidents/inc_1' },
      { type: 'Action.OpenUrl', title: 'Acknowledge', url: 'http://127.0.0.1:4000/ack/tok_1', style: 'positive' },
    ])
  })

  it('a resolved alert has a green (good) header and only the Open action', async () => {
    await send(sampleAlert('resolved'))
    expect(card().body[0]).toMatchObject({ style: 'good', items: [{ text: 'Resolved: Checkout API is down' }] })
    expect(card().actions.map((action) => action.title)).toEqual(['Open in Guard'])
  })

  it('a digest lists its items as facts, clipped to twenty', async () => {
    const item = {
      kind: 'opened' as const,
      title: 'Search is down',
      text: 'Timeout',
      occurredAt: '2026-11-27T02:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await send(sampleAlert('digest', { items: Array(22).fill(item) }))
    const facts = (card().body[2] as { facts: Array<{ title: string; value: string }> }).facts
    expect(facts[0]).toEqual({ title: 'Search is down', value: 'Timeout' })
    expect(facts.at(-1)).toEqual({ title: '…', value: 'and 2 more' })
  })

  it('a 429 is retried after Retry-After', async () => {
    answer = {
      status: 429,
      headers: { 'retry-after': '12' },
      json: { error: { code: 'WorkflowTriggeredTooManyTimes' } },
    }
    expect(await send()).toMatchObject({ ok: false, statusCode: 429, retryAfterMs: 12_000 })
  })

  it.each([400, 401, 403, 404])(
    'a %i (malformed card, bad signature, deleted workflow) is permanent',
    async (status) => {
      answer = { status, json: { error: { code: 'DirectApiAuthorizationRequired' } } }
      expect(await send()).toMatchObject({ ok: false, statusCode: status, permanent: true })
    },
  )

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 503 }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 503 })
    expect(result).not.toHaveProperty('permanent')
  })
})
