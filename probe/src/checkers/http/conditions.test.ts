import { describe, expect, it } from 'vitest'
import { type Answer, conditionProblem } from './conditions.ts'

const NOW = Date.parse('2030-01-01T00:00:00.000Z')

const answer = (overrides: Partial<Answer> = {}): Answer => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'set-cookie': ['a=1', 'b=2'] },
  body: Buffer.from(
    JSON.stringify({
      data: { id: 1, name: 'john.doe', items: [{ id: 7 }, { id: 8 }], nested: { ok: true } },
      empty: [],
      version: '2',
      state: 'Not Found',
    }),
  ),
  responseTimeMs: 120,
  address: '192.168.1.20',
  certificateExpiresAt: new Date(NOW + 72 * 3_600_000).toISOString(),
  now: NOW,
  ...overrides,
})

/** The reason the one condition fails, or undefined when it holds. */
const reason = (condition: string, overrides?: Partial<Answer>) => conditionProblem([condition], answer(overrides))

describe('conditionProblem', () => {
  it('[STATUS] compares as a number, with any() and pat()', () => {
    expect(reason('[STATUS] == 200')).toBeUndefined()
    expect(reason('[STATUS] < 300')).toBeUndefined()
    expect(reason('[STATUS] == any(201, 429)')).toBe('[STATUS] == any(201, 429): was 200')
    expect(reason('[STATUS] == pat(2*)')).toBeUndefined()
    expect(reason('[STATUS] != 200')).toBe('[STATUS] != 200: was 200')
    expect(reason('[STATUS] >= 500', { statusCode: 503 })).toBeUndefined()
  })

  it('[RESPONSE_TIME] compares milliseconds with numbers and durations', () => {
    expect(reason('[RESPONSE_TIME] < 500')).toBeUndefined()
    expect(reason('[RESPONSE_TIME] < 1s')).toBeUndefined()
    expect(reason('[RESPONSE_TIME] <= 100')).toBe('[RESPONSE_TIME] <= 100: was 120')
  })

  it('[BODY] paths reach keys and array items; a mismatch quotes the value', () => {
    expect(reason('[BODY].data.id == 1')).toBeUndefined()
    expect(reason('[BODY].data.id == 2')).toBe('[BODY].data.id == 2: was 1')
    expect(reason('[BODY].data.items[1].id == 8')).toBeUndefined()
    expect(reason('[BODY].data.name == john.doe')).toBeUndefined()
    expect(reason('[BODY].data.name == jane')).toBe('[BODY].data.name == jane: was "john.doe"')
    expect(reason('[BODY].version == 2')).toBeUndefined()
    expect(reason('[BODY].state == "Not Found"')).toBeUndefined()
    expect(reason('[BODY].data.nested == \'{"ok":true}\'')).toBeUndefined()
    expect(reason('[BODY].data.nested.ok == true')).toBeUndefined()
    expect(reason('[BODY].data.id == [BODY].data.items[0].id')).toBe(
      '[BODY].data.id == [BODY].data.items[0].id: [BODY].data.id was 1, [BODY].data.items[0].id was 7',
    )
  })

  it('a path that leads nowhere fails whatever the comparator, naming the path', () => {
    expect(reason('[BODY].data.missing != 1')).toBe('[BODY].data.missing != 1: [BODY].data.missing not found')
    expect(reason('[BODY].data.items[5].id == 1')).toBe(
      '[BODY].data.items[5].id == 1: [BODY].data.items[5].id not found',
    )
    expect(reason('[BODY].a == 1', { body: Buffer.from('<html>') })).toBe(
      '[BODY].a == 1: [BODY].a not found, the body is not JSON',
    )
  })

  it('[BODY] alone is the trimmed text', () => {
    expect(reason('[BODY] == pong', { body: Buffer.from(' pong\n') })).toBeUndefined()
    expect(reason('[BODY] == pong', { body: Buffer.from('ping') })).toBe('[BODY] == pong: was "ping"')
  })

  it('len() counts array items, string characters and minified JSON; has() tells whether a path exists', () => {
    expect(reason('len([BODY].data.items) == 2')).toBeUndefined()
    expect(reason('len([BODY].empty) > 0')).toBe('len([BODY].empty) > 0: was 0')
    expect(reason('len([BODY].data.name) == 8')).toBeUndefined()
    expect(reason('len([BODY].data.nested) == 11')).toBeUndefined()
    expect(reason('len([BODY]) == 3', { body: Buffer.from('[1,2,3]') })).toBeUndefined()
    expect(reason('has([BODY].data.items) == true')).toBeUndefined()
    expect(reason('has([BODY].errors) == false')).toBeUndefined()
    expect(reason('has([BODY].errors) == true')).toBe('has([BODY].errors) == true: was false')
    expect(reason('has([BODY]) == false', { body: Buffer.alloc(0) })).toBeUndefined()
  })

  it('[HEADERS].Name reads a response header case-insensitively, several values joined', () => {
    expect(reason('[HEADERS].Content-Type == pat(application/json*)')).toBeUndefined()
    expect(reason('[HEADERS].Set-Cookie == "a=1, b=2"')).toBeUndefined()
    expect(reason('has([HEADERS].X-Missing) == false')).toBeUndefined()
    expect(reason('[HEADERS].X-Missing == 1')).toBe('[HEADERS].X-Missing == 1: [HEADERS].X-Missing not found')
    expect(reason('len([HEADERS].content-type) > 100')).toBe('len([HEADERS].content-type) > 100: was 31')
  })

  it('[CERTIFICATE_EXPIRATION] is the time left, shown as a duration; 0 without a certificate', () => {
    expect(reason('[CERTIFICATE_EXPIRATION] > 48h')).toBeUndefined()
    expect(reason('[CERTIFICATE_EXPIRATION] > 96h')).toBe('[CERTIFICATE_EXPIRATION] > 96h: was 72h')
    expect(reason('[CERTIFICATE_EXPIRATION] > 48h', { certificateExpiresAt: undefined })).toBe(
      '[CERTIFICATE_EXPIRATION] > 48h: was 0 (no certificate)',
    )
  })

  it('[IP] matches exactly, by pattern or from a list; [CONNECTED] is true once an answer came', () => {
    expect(reason('[IP] == 192.168.1.20')).toBeUndefined()
    expect(reason('[IP] == pat(192.168.*)')).toBeUndefined()
    expect(reason('[IP] == pat(10.?.*)')).toBe('[IP] == pat(10.?.*): was 192.168.1.20')
    expect(reason('[IP] == any(10.0.0.1, 192.168.1.20)')).toBeUndefined()
    expect(reason('[IP] != any(10.0.0.1, 192.168.1.20)')).toBe('[IP] != any(10.0.0.1, 192.168.1.20): was 192.168.1.20')
    expect(reason('[CONNECTED] == true')).toBeUndefined()
  })

  it('an ordering over a value that is not a number fails and says so', () => {
    expect(reason('[BODY].data.name > 1')).toBe('[BODY].data.name > 1: was "john.doe", not a number')
  })

  it('reports the first failing condition of a list, and nothing when all hold', () => {
    const all = ['[STATUS] == 200', '[BODY].data.id == 3', '[BODY].data.id == 4']
    expect(conditionProblem(all, answer())).toBe('[BODY].data.id == 3: was 1')
    expect(conditionProblem(['[STATUS] == 200', 'len([BODY].data.items) == 2'], answer())).toBeUndefined()
  })

  it('cuts long values and masks the request credentials an answer echoes', () => {
    const long = 'x'.repeat(500)
    const cut = reason('[BODY].v == y', { body: Buffer.from(JSON.stringify({ v: long })) })
    expect(cut).toBe(`[BODY].v == y: was "${'x'.repeat(99)}…`)
    const echoed = Buffer.from(JSON.stringify({ auth: 'Bearer s3cr3t-t0ken' }))
    const masked = conditionProblem(['[BODY].auth == none'], answer({ body: echoed }), ['s3cr3t-t0ken'])
    expect(masked).toBe('[BODY].auth == none: was "Bearer ***"')
  })

  it('reports a condition that no longer parses (written by a newer collector) instead of throwing', () => {
    expect(conditionProblem(['[STATUS] == 200', '[NEW] == 1'], answer())).toMatch(
      /^condition 2: unknown placeholder \[NEW\]/,
    )
  })
})
