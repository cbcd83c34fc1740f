import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { type PlatformTestIdentity, startPlatformIdentity } from '../identity/src/routes/testing.ts'
import {
  loneSurrogate,
  MALFORMED_BYTES,
  malformedHeaderValue,
  malformedPercent,
} from '../shared/src/testing/malformed-text.ts'

interface Parameter {
  name: string
  in: string
}
interface Operation {
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
}
type OpenApi = { paths: Record<string, Record<string, Operation>> }

/** A short string with at least one of `controls` inside. */
const withControl = (...controls: string[]) =>
  fc
    .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...controls), fc.string({ maxLength: 6 }))
    .map(([before, control, after]) => `${before}${control}${after}`)
const poisoned = withControl('\u0000', '\r\n', '\n', '\u001b', '\u0007', '\u007f', '\u0000\u0000')
// Line breaks and tabs are text in a body (a description, a message); the rest is refused there.
const poisonedBody = withControl('\u0000', '\u001b', '\u0007', '\u007f', '\u0000\u0000', 'a\u0000\r\n')

// Headers every route may read (a session cookie, a CSRF token, the MCP session) or log.
const HEADER_NAMES = ['user-agent', 'cookie', 'x-csrf-token', 'mcp-session-id', 'x-request-id']

interface Request {
  url: string
  body?: string | Buffer
  contentType?: string
  headers?: Record<string, string>
}
interface Answer {
  status: number
  contentType: string
  body: string
}
interface Target {
  send(request: Request & { method: string }): Promise<Answer>
  /** Whether the answer is the service's own error shape for that path. */
  isErrorShape(path: string, answer: Answer): boolean
}

const parsed = (answer: Answer): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(answer.body)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
/** MCP endpoints answer in JSON-RPC terms once the body is read. */
const isJsonRpcError = (answer: Answer) => {
  const error = parsed(answer).error as Record<string, unknown> | undefined
  return typeof error?.code === 'number' && typeof error.message === 'string'
}

/** `{ field: 'plain', …, [name]: bad }` for each field of the operation's body schema. */
function bodyOf(names: string[], name: string, bad: string) {
  return Object.fromEntries(names.map((field) => [field, field === name ? bad : 'plain']))
}

function operationsOf(document: OpenApi) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  )
}

/**
 * For every operation of the document: control characters, lone surrogates and bytes that are not
 * UTF-8 in each path parameter, in the query, in a header and in each top-level body field, and
 * malformed bytes as the raw body. Every answer must be a 4xx in the service's error shape: never a
 * 5xx, never accepted. A few samples per operation and kind keep it fast.
 */
async function fuzzEveryRoute(document: OpenApi, target: Target): Promise<number> {
  const failures: string[] = []
  let requests = 0
  for (const { path, method, operation } of operationsOf(document)) {
    const params = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path')
    const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query')
    const fill = (value: (name: string) => string) => path.replace(/\{(\w+)\}/g, (_, name: string) => value(name))
    const plainPath = fill(() => 'x1')
    const content = Object.entries(operation.requestBody?.content ?? {})[0]
    const variants: Array<fc.Arbitrary<Request>> = []
    if (params.length > 0) {
      variants.push(poisoned.map((bad) => ({ url: fill(() => encodeURIComponent(bad)) })))
      variants.push(malformedPercent.map((bad) => ({ url: fill(() => bad) })))
    }
    const queryNames = query.length > 0 ? query.map((parameter) => parameter.name) : ['q']
    variants.push(
      fc.tuple(fc.constantFrom(...queryNames), poisoned).map(([name, bad]) => ({
        url: `${plainPath}?${new URLSearchParams({ [name]: bad })}`,
      })),
      fc.tuple(fc.constantFrom(...queryNames), malformedPercent).map(([name, bad]) => ({
        url: `${plainPath}?${encodeURIComponent(name)}=${bad}`,
      })),
      fc.tuple(fc.constantFrom(...HEADER_NAMES), malformedHeaderValue).map(([name, bad]) => ({
        url: plainPath,
        headers: { [name]: bad },
      })),
    )
    if (content) {
      const [contentType, media] = content
      const fields = Object.keys(media.schema?.properties ?? {})
      const names = fields.length > 0 ? fields : ['value']
      const json = contentType.includes('json')
      const type = json ? 'application/json' : contentType
      const encode = (values: Record<string, string>) =>
        json ? JSON.stringify(values) : new URLSearchParams(values).toString()
      const field = fc.constantFrom(...names)
      variants.push(
        fc.tuple(field, poisonedBody).map(([name, bad]) => ({
          url: plainPath,
          body: encode(bodyOf(names, name, bad)),
          contentType: type,
        })),
        // Raw bytes where the text of one field would be.
        fc.tuple(field, fc.constantFrom(...MALFORMED_BYTES)).map(([name, bytes]) => {
          const [before, after] = encode(bodyOf(names, name, 'MARK')).split('MARK')
          return {
            url: plainPath,
            body: Buffer.concat([Buffer.from(before ?? ''), Buffer.from(bytes), Buffer.from(after ?? '')]),
            contentType: type,
          }
        }),
      )
      variants.push(
        json
          ? fc.tuple(field, loneSurrogate).map(([name, bad]) => ({
              url: plainPath,
              body: JSON.stringify(bodyOf(names, name, bad)),
              contentType: type,
            }))
          : // A form cannot carry a lone surrogate; its nearest is a percent-encoded one.
            fc.tuple(field, malformedPercent).map(([name, bad]) => ({
              url: plainPath,
              body: `${encode(bodyOf(names, name, 'MARK'))}`.replace('MARK', bad),
              contentType: type,
            })),
      )
    }
    for (const variant of variants) {
      await fc.assert(
        fc.asyncProperty(variant, async (request) => {
          requests += 1
          const answer = await target.send({ method, ...request })
          if (answer.status < 400 || answer.status >= 500 || !target.isErrorShape(path, answer)) {
            const sent = { ...request, body: request.body?.toString() }
            failures.push(`${method} ${JSON.stringify(sent)} -> ${answer.status} ${answer.body.slice(0, 200)}`)
          }
        }),
        { numRuns: 4 },
      )
    }
  }
  expect(failures).toEqual([])
  return requests
}

describe('control characters and malformed Unicode on every route of both OpenAPI documents', () => {
  let collector: Awaited<ReturnType<typeof collectorForTest>>
  let collectorApp: Awaited<ReturnType<typeof buildCollectorApp>>
  let identity: PlatformTestIdentity

  beforeAll(async () => {
    collector = await collectorForTest({ GUARD_RATE_LIMIT_READ: '1000000', GUARD_RATE_LIMIT_WRITE: '1000000' })
    collectorApp = await buildCollectorApp(collector.ctx)
    identity = await startPlatformIdentity()
  })
  afterAll(async () => {
    await collectorApp?.close()
    await collector?.close()
    await identity?.close()
  })

  it('the collector answers 4xx to every one, as a caller with a valid key', async () => {
    const document = (await collectorApp.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApi
    const requests = await fuzzEveryRoute(document, {
      send: async ({ method, url, body, contentType, headers }) => {
        // An event stream that accepted the request would never end: it counts as an answer it must not give.
        const response = await collectorApp
          .inject({
            method: method as 'GET',
            url,
            headers: {
              authorization: `Bearer ${collector.apiKey}`,
              ...(contentType ? { 'content-type': contentType } : {}),
              ...headers,
            },
            ...(body !== undefined ? { payload: body } : {}),
            signal: AbortSignal.timeout(5000),
          })
          .catch(() => undefined)
        if (!response) return { status: 0, contentType: '', body: 'no answer within 5 s' }
        return { status: response.statusCode, contentType: `${response.headers['content-type']}`, body: response.body }
      },
      // The 401 and 429 bodies are exactly the spec's, without `success`.
      isErrorShape: (path, answer) => {
        const body = parsed(answer)
        const collectorError =
          typeof body.error === 'string' &&
          typeof body.message === 'string' &&
          (body.success === false || [401, 429].includes(answer.status))
        return collectorError || (path.endsWith('/mcp') && isJsonRpcError(answer))
      },
    })
    expect(requests).toBeGreaterThan(50)
  }, 120_000)

  it('identity answers 4xx to every one', async () => {
    const document = (await (await fetch(`${identity.url}/openapi.json`)).json()) as OpenApi
    const requests = await fuzzEveryRoute(document, {
      send: async ({ method, url, body, contentType, headers }) => {
        const response = await identity.app.inject({
          method: method as 'GET',
          url,
          headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
          ...(body !== undefined ? { payload: body } : {}),
        })
        return { status: response.statusCode, contentType: `${response.headers['content-type']}`, body: response.body }
      },
      // Problem details everywhere; the OAuth endpoints add RFC 6749's fields in plain JSON.
      isErrorShape: (path, answer) => {
        const body = parsed(answer)
        const problem = typeof body.code === 'string' && typeof body.detail === 'string'
        if (answer.contentType.startsWith('application/problem+json')) return problem
        const oauth = typeof body.error === 'string' && typeof body.error_description === 'string'
        return (problem && oauth) || (path.endsWith('mcp') && isJsonRpcError(answer))
      },
    })
    expect(requests).toBeGreaterThan(50)
  }, 120_000)
})
