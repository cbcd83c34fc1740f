import fc from 'fast-check'
import type { FastifyError } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GuardError } from '../errors.ts'
import { createLogger } from '../logger.ts'
import { MALFORMED_BYTES, MALFORMED_PERCENT } from '../testing/malformed-text.ts'
import { createFastify, type GuardFastify } from './fastify.ts'
import { parseUrlEncodedForm } from './unicode.ts'

let app: GuardFastify

beforeAll(async () => {
  app = createFastify({ logger: createLogger({ name: 'unicode-test', level: 'silent', pretty: false }) })
  // A service's own error shape, so the test sees which answers went through it.
  app.setErrorHandler((error: FastifyError, _request, reply) =>
    reply.status(error.statusCode ?? 500).send({ mine: true, code: error.code, message: error.message }),
  )
  app.post('/echo', async (request) => ({ body: request.body, query: request.query }))
  app.get('/items/:id', async (request) => ({ params: request.params, query: request.query }))
  await app.ready()
})
afterAll(() => app?.close())

const json = (payload: string | Buffer, url = '/echo') =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload })

/** `{"name":"a<bytes>b"}` with the bytes raw. */
const withBytes = (bytes: readonly number[]) =>
  Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes), Buffer.from('b"}')])

describe('a JSON body', () => {
  it.each([
    [[0xff], 'is not valid UTF-8'],
    [[0xc0, 0xaf], 'is not valid UTF-8'],
    [[0xe0, 0x80, 0xaf], 'is not valid UTF-8'],
    [[0xe2, 0x82], 'is not valid UTF-8'],
    [[0xed, 0xa0, 0xbd], 'contains a lone surrogate'],
    [[0xed, 0xb0, 0x80], 'contains a lone surrogate'],
  ])('with raw bytes %j is refused: the body %s', async (bytes, problem) => {
    const response = await json(withBytes(bytes))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ mine: true, code: 'VALIDATION_ERROR', message: `Request body ${problem}` })
  })

  it.each([
    ['{"name":"a\\ud83d"}', 'body.name'],
    ['{"name":"\\udc00b"}', 'body.name'],
    ['{"tags":["ok","x\\ude00y"]}', 'body.tags.1'],
    ['{"headers":{"X-A":"\\ud83d\\ud83d"}}', 'body.headers.X-A'],
    ['{"\\ud83d":"key"}', 'body.\ud83d'],
  ])('with a lone surrogate escape (%s) is refused naming %s', async (payload, where) => {
    const response = await json(payload)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(`${where} contains a lone surrogate`)
  })

  it('keeps pairs, raw or escaped, and any other text', async () => {
    const body = { a: '😀', b: 'café 日本', c: '\ud83d\ude00' }
    const escaped = '{"a":"\\ud83d\\ude00","b":"caf\\u00e9 日本","c":"😀"}'
    expect((await json(JSON.stringify(body))).json().body).toEqual(body)
    expect((await json(escaped)).json().body).toEqual({ a: '😀', b: 'café 日本', c: '😀' })
  })

  it('keeps fastify’s answers to JSON it cannot read and its guard against prototype poisoning', async () => {
    expect((await json('{"a":')).statusCode).toBe(400)
    expect((await json('{"__proto__":{"x":1}}')).statusCode).toBe(400)
    expect((await json('')).statusCode).toBe(400)
  })

  it('is refused exactly when its bytes are not UTF-8, never with a 5xx', async () => {
    const strict = new TextDecoder('utf-8', { fatal: true })
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 6 }), async (bytes) => {
        // Only bytes that JSON keeps inside a string and the control-character guard lets by.
        const inside = bytes.filter((byte) => byte >= 0x20 && ![0x22, 0x5c, 0x7f].includes(byte))
        const response = await json(withBytes([...inside]))
        let valid = true
        try {
          strict.decode(inside)
        } catch {
          valid = false
        }
        expect(response.statusCode).toBe(valid ? 200 : 400)
      }),
      { numRuns: 200 },
    )
  })
})

describe('a query', () => {
  it.each(
    MALFORMED_PERCENT.map((bad) => [bad, bad.startsWith('%ED') ? 'contains a lone surrogate' : 'is not valid UTF-8']),
  )('with %s in a value is refused, naming the parameter', async (bad, problem) => {
    const response = await app.inject({ method: 'GET', url: `/items/x?ok=1&q=a${bad}b` })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ mine: true, code: 'VALIDATION_ERROR', message: `Query parameter "q" ${problem}` })
  })

  it('with a malformed name is refused', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/x?a%FF=1' })
    expect(response.json().message).toBe('A query parameter name is not valid UTF-8')
  })

  it('keeps UTF-8, plus signs and a percent sign that escapes nothing', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/x?a=caf%C3%A9&b=%F0%9F%98%80&c=a+b&d=100%' })
    expect(response.statusCode).toBe(200)
    expect(response.json().query).toEqual({ a: 'café', b: '😀', c: 'a b', d: '100%' })
  })

  it('is refused before the body is read', async () => {
    const response = await json('{"name":"ok"}', '/echo?q=%FF')
    expect(response.json().message).toBe('Query parameter "q" is not valid UTF-8')
  })
})

describe('a path', () => {
  it.each([
    ['a%ED%A0%BDb', 'The path contains a lone surrogate'],
    ['a%C0%AF', 'The path is not valid UTF-8'],
    ['%E2%82', 'The path is not valid UTF-8'],
    ['a%zz', 'The path has a malformed percent-escape (% must be followed by two hex digits)'],
  ])('%s is refused by the service’s own error handler', async (segment, message) => {
    const response = await app.inject({ method: 'GET', url: `/items/${segment}?q=1` })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ mine: true, code: 'VALIDATION_ERROR', message })
  })

  it('in UTF-8 reaches the route', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/caf%C3%A9' })
    expect(response.json().params).toEqual({ id: 'café' })
  })
})

describe('a header', () => {
  // Node hands header bytes over as Latin-1: these strings are what the bytes become.
  it.each(
    MALFORMED_BYTES.map((bytes) => [
      Buffer.from(bytes).toString('latin1'),
      bytes[0] === 0xed ? 'contains a lone surrogate' : 'is not valid UTF-8',
    ]),
  )('with the bytes of %j is refused', async (value, problem) => {
    const response = await app.inject({ method: 'GET', url: '/items/x', headers: { 'x-thing': `a${value}b` } })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toBe(`Header x-thing ${problem}`)
  })

  it('with a lone surrogate, as only an in-process request can send, is refused', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/x', headers: { 'user-agent': 'a\ud83d' } })
    expect(response.json().message).toBe('Header user-agent contains a lone surrogate')
  })

  it('with UTF-8 bytes or plain text reaches the route', async () => {
    const utf8 = Buffer.from('café 😀').toString('latin1')
    const response = await app.inject({ method: 'GET', url: '/items/x', headers: { 'x-thing': utf8, 'x-other': 'ok' } })
    expect(response.statusCode).toBe(200)
  })
})

describe('a form body', () => {
  it('is read as fields when it is UTF-8', () => {
    const form = parseUrlEncodedForm(Buffer.from('a=caf%C3%A9&b=x+y&c=é'))
    expect(Object.fromEntries(form)).toEqual({ a: 'café', b: 'x y', c: 'é' })
  })

  it.each([
    [Buffer.from('a=%ED%A0%BD'), 'Form field "a" contains a lone surrogate'],
    [Buffer.from('a=1&grant_type=%C0%AF'), 'Form field "grant_type" is not valid UTF-8'],
    [Buffer.concat([Buffer.from('a='), Buffer.from([0xff])]), 'Request body is not valid UTF-8'],
  ])('%s is refused with VALIDATION_ERROR', (body, message) => {
    expect(() => parseUrlEncodedForm(body)).toThrow(new GuardError('VALIDATION_ERROR', message))
  })
})
