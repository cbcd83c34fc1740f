import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnswer, fakePlatform, providerTestIO, sampleAlert } from '../../../../test-support.ts'
import { telegram } from './index.ts'

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0'

describe('telegram: Bot API sendMessage', () => {
  let answer: FakeAnswer = { status: 200, json: { ok: true, result: { message_id: 1 } } }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  const config = (extra: Record<string, unknown> = {}) =>
    telegram.config.parse({ apiUrl: `${fake.url}/`, botToken: TOKEN, chatId: '-1001234567890', ...extra })
  const send = (alert = sampleAlert('opened'), extra: Record<string, unknown> = {}) =>
    telegram.send(alert, config(extra), providerTestIO())
  const last = () => fake.requests.at(-1)!
  const body = () => last().body as unknown as Record<string, unknown>

  beforeAll(async () => {
    fake = await fakePlatform(() => answer)
  })
  afterAll(() => fake.close())
  beforeEach(() => {
    answer = { status: 200, json: { ok: true, result: { message_id: 1 } } }
  })

  it('posts an opened alert to /bot<token>/sendMessage as HTML with Open and Acknowledge buttons', async () => {
    expect(await send()).toEqual({ ok: true, statusCode: 200 })
    expect(last().method).toBe('POST')
    expect(last().path).toBe(`/bot${TOKEN}/sendMessage`)
    expect(last().headers['content-type']).toBe('application/json')
    expect(body()).toEqual({
      chat_id: -1001234567890,
      text: expect.stringContaining(
        '🔴 <b>Checkout API is down</b>\nDown from eu, us (2 of 3 locations): Connection refused',
      ),
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      disable_notification: false,
      reply_markup: {
        inline_keyboard: [
          [
            { text: 'Open in Guard', url: 'http://127.0.0.1:4000/console/incidents/inc_1' },
            { text: 'Acknowledge', url: 'http://127.0.0.1:4000/ack/tok_1' },
          ],
        ],
      },
    })
  })

  it('a resolved alert is green, silent, and has only the Open button', async () => {
    await send(sampleAlert('resolved'))
    expect(body().text).toMatch(/^🟢 <b>Resolved: Checkout API is down<\/b>/)
    expect(body().disable_notification).toBe(true)
    expect(body().reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Open in Guard', url: 'http://127.0.0.1:4000/console/incidents/inc_1' }]],
    })
  })

  it('escapes <, > and & so alert text cannot break the HTML parse mode', async () => {
    await send(sampleAlert('opened', { title: 'A<b> & B', text: '<script>x</script>' }))
    expect(body().text).toContain('<b>A&lt;b&gt; &amp; B</b>\n&lt;script&gt;x&lt;/script&gt;')
  })

  it('posts into a forum topic and to a @channel by name', async () => {
    await send(sampleAlert('opened'), { chatId: '@guard_alerts', messageThreadId: 42 })
    expect(body()).toMatchObject({ chat_id: '@guard_alerts', message_thread_id: 42 })
  })

  it('keeps a huge alert under the 4096-character limit', async () => {
    const item = {
      kind: 'opened' as const,
      title: 't'.repeat(500),
      text: 'x'.repeat(500),
      occurredAt: '2026-11-27T02:00:00.000Z',
      severity: 'high' as const,
      link: 'http://127.0.0.1:4000/x',
    }
    await send(
      sampleAlert('digest', { title: 'T'.repeat(5000), text: 'y'.repeat(10_000), items: Array(30).fill(item) }),
    )
    // Telegram counts the text as shown: markup removed, each entity one character.
    const shown = (body().text as string).replace(/<[^>]+>/g, '').replace(/&(lt|gt|amp|quot);/g, '_')
    expect(shown.length).toBeLessThanOrEqual(4096)
    expect(body().text).toContain('…and 20 more')
  })

  it("a 429 is retried after the answer's parameters.retry_after", async () => {
    answer = {
      status: 429,
      json: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 7',
        parameters: { retry_after: 7 },
      },
    }
    const result = await send()
    expect(result).toEqual({
      ok: false,
      statusCode: 429,
      error: '429: Too Many Requests: retry after 7',
      retryAfterMs: 7000,
    })
  })

  it.each([
    [400, 'Bad Request: chat not found'],
    [401, 'Unauthorized'],
    [403, 'Forbidden: bot was kicked from the group chat'],
  ])('a %i (%s) is permanent, worded by Telegram without the token', async (status, description) => {
    answer = { status, json: { ok: false, error_code: status, description } }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: status, permanent: true, error: `${status}: ${description}` })
    expect(JSON.stringify(result)).not.toContain(TOKEN)
  })

  it('a group upgraded to a supergroup is permanent and names the new chat id', async () => {
    answer = {
      status: 400,
      json: {
        ok: false,
        error_code: 400,
        description: 'Bad Request: group chat was upgraded to a supergroup chat',
        parameters: { migrate_to_chat_id: -1009876543210 },
      },
    }
    expect(await send()).toMatchObject({ permanent: true, error: expect.stringContaining('-1009876543210') })
  })

  it('a 5xx is retried, not permanent', async () => {
    answer = { status: 502, json: { ok: false, error_code: 502, description: 'Bad Gateway' } }
    const result = await send()
    expect(result).toMatchObject({ ok: false, statusCode: 502 })
    expect(result).not.toHaveProperty('permanent')
  })

  it('a network failure quoting the URL is reworded without the token', async () => {
    const io = {
      ...providerTestIO(),
      http: async (request: { url: string }) => {
        throw new Error(`request to ${request.url} failed: ECONNRESET`)
      },
    }
    const failure = await telegram.send(sampleAlert('opened'), config(), io).catch((error: Error) => error)
    expect(String(failure)).toContain('/bot<bot token>/sendMessage failed: ECONNRESET')
    expect(String(failure)).not.toContain(TOKEN)
  })

  it('refuses a malformed token or chat id when the channel is saved', () => {
    expect(telegram.config.safeParse({ botToken: 'nope', chatId: '-100' }).success).toBe(false)
    expect(telegram.config.safeParse({ botToken: TOKEN, chatId: 'general' }).success).toBe(false)
    expect(telegram.config.parse({ botToken: TOKEN, chatId: '-100' }).apiUrl).toBe('https://api.telegram.org')
  })
})
