import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('chat conversations', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const as = (name: string) => ({ authorization: `Bearer user:${name}` })
  const save = (name: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/chat/conversations', headers: as(name), payload })

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, {
        alice: userCaller('alice', [ORG]),
        bob: userCaller('bob', [ORG]),
      }),
    })
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('starts a conversation titled by the first message, appends exchanges and lists newest first', async () => {
    const first = await save('alice', { userMessage: 'Why is   shop down?', assistantMessage: 'fra sees 503s.' })
    expect(first.statusCode).toBe(200)
    const conversation = first.json().data
    expect(conversation).toMatchObject({ title: 'Why is shop down?', messageCount: 2 })
    const appended = await save('alice', {
      conversationId: conversation.id,
      userMessage: 'Since when?',
      assistantMessage: 'Since 08:00 UTC.',
    })
    expect(appended.json().data.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Why is   shop down?'],
      ['assistant', 'fra sees 503s.'],
      ['user', 'Since when?'],
      ['assistant', 'Since 08:00 UTC.'],
    ])
    const second = (await save('alice', { userMessage: 'Another question', assistantMessage: '' })).json().data
    const list = (
      await app.inject({ method: 'GET', url: '/api/chat/conversations?limit=1', headers: as('alice') })
    ).json()
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([second.id])
    expect(list.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 })
    const again = await save('alice', { conversationId: conversation.id, userMessage: 'x', assistantMessage: 'y' })
    expect(again.statusCode).toBe(200)
    const reordered = (await app.inject({ method: 'GET', url: '/api/chat/conversations', headers: as('alice') })).json()
    expect(reordered.data[0].id).toBe(conversation.id)
  })

  it('never shows a conversation to anybody else, not even a member of the same organization', async () => {
    const mine = (await save('alice', { userMessage: 'private-question-xyz', assistantMessage: 'a' })).json().data
    const read = await app.inject({ method: 'GET', url: `/api/chat/conversations/${mine.id}`, headers: as('bob') })
    expect(read.statusCode).toBe(404)
    const list = await app.inject({ method: 'GET', url: '/api/chat/conversations', headers: as('bob') })
    expect(list.body).not.toContain('private-question-xyz')
    const append = await save('bob', { conversationId: mine.id, userMessage: 'hijack', assistantMessage: 'x' })
    expect(append.statusCode).toBe(404)
    const key = await app.inject({
      method: 'GET',
      url: '/api/chat/conversations',
      headers: { authorization: `Bearer ${harness.apiKey}` },
    })
    expect(key.statusCode).toBe(403)
    const after = await app.inject({ method: 'GET', url: `/api/chat/conversations/${mine.id}`, headers: as('alice') })
    expect(after.json().data.messageCount).toBe(2)
  })

  it('refuses messages over the size limits and empty questions', async () => {
    expect((await save('alice', { userMessage: 'x'.repeat(20_001), assistantMessage: 'a' })).statusCode).toBe(400)
    expect((await save('alice', { userMessage: 'q', assistantMessage: 'x'.repeat(50_001) })).statusCode).toBe(400)
    expect((await save('alice', { userMessage: '   ', assistantMessage: 'a' })).statusCode).toBe(400)
  })
})
