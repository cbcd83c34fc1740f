import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { type PlatformTestIdentity, startPlatformIdentity } from '../identity/src/routes/testing.ts'

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

interface Target {
  send(request: { method: string; url: string; body?: string; contentType?: string }): Promise<number>
}

function operationsOf(document: OpenApi) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  )
}

/**
 * For every operation of the document: control characters in each path parameter, in the query
 * and in each top-level body field. Every answer must be a 4xx: never a 5xx, never accepted.
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
    const variants: Array<fc.Arbitrary<{ url: string; body?: string; contentType?: string }>> = []
    if (params.length > 0) {
      variants.push(poisoned.map((bad) => ({ url: fill(() => encodeURIComponent(bad)) })))
    }
    const queryNames = query.length > 0 ? query.map((parameter) => parameter.name) : ['q']
    variants.push(
      fc.tuple(fc.constantFrom(...queryNames), poisoned).map(([name, bad]) => ({
        url: `${plainPath}?${new URLSearchParams({ [name]: bad })}`,
      })),
    )
    if (content) {
      const [contentType, media] = content
      const fields = Object.keys(media.schema?.properties ?? {})
      const names = fields.length > 0 ? fields : ['value']
      variants.push(
        fc.tuple(fc.constantFrom(...names), poisonedBody).map(([name, bad]) => {
          const values = Object.fromEntries(names.map((field) => [field, field === name ? bad : 'plain']))
          const body = contentType.includes('json')
            ? JSON.stringify(values)
            : new URLSearchParams(values as Record<string, string>).toString()
          return { url: plainPath, body, contentType: contentType.includes('json') ? 'application/json' : contentType }
        }),
      )
    }
    for (const variant of variants) {
      await fc.assert(
        fc.asyncProperty(variant, async (request) => {
          requests += 1
          const status = await target.send({ method, ...request })
          if (status < 400 || status >= 500) {
            failures.push(`${method} ${request.url} ${JSON.stringify(request.body ?? '')} -> ${status}`)
          }
        }),
        { numRuns: 4 },
      )
    }
  }
  expect(failures).toEqual([])
  return requests
}

describe('control characters on every route of both OpenAPI documents', () => {
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
      send: async ({ method, url, body, contentType }) =>
        (
          await collectorApp.inject({
            method: method as 'GET',
            url,
            headers: {
              authorization: `Bearer ${collector.apiKey}`,
              ...(contentType ? { 'content-type': contentType } : {}),
            },
            ...(body !== undefined ? { payload: body } : {}),
          })
        ).statusCode,
    })
    expect(requests).toBeGreaterThan(50)
  }, 120_000)

  it('identity answers 4xx to every one', async () => {
    const document = (await (await fetch(`${identity.url}/openapi.json`)).json()) as OpenApi
    const requests = await fuzzEveryRoute(document, {
      send: async ({ method, url, body, contentType }) =>
        (
          await identity.app.inject({
            method: method as 'GET',
            url,
            headers: contentType ? { 'content-type': contentType } : {},
            ...(body !== undefined ? { payload: body } : {}),
          })
        ).statusCode,
    })
    expect(requests).toBeGreaterThan(50)
  }, 120_000)
})
