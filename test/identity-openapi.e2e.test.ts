import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlatformTestIdentity, startPlatformIdentity } from '../identity/src/routes/testing.ts'

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
  requestBody?: { content: Record<string, unknown> }
}
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> }

let identity: PlatformTestIdentity
let document: OpenApi

beforeAll(async () => {
  identity = await startPlatformIdentity()
  document = (await (await fetch(`${identity.url}/openapi.json`)).json()) as OpenApi
})
afterAll(() => identity?.close())

/**
 * One request per operation that a client without a user session can make: the catalog and
 * discovery reads as they are, the OAuth operations with inputs they must refuse (a real flow is
 * the OAuth tests' job), so their documented error responses are exercised too.
 */
const REQUESTS: Record<string, { query?: string; form?: Record<string, string>; json?: unknown }> = {
  'GET /api/v1/changelog': { query: '?limit=3' },
  'GET /api/changelog': { query: '?appsOnly=true' },
  'GET /api/oauth/authorize': {
    query: '?client_id=unknown&response_type=code&redirect_uri=https%3A%2F%2Fexample.org%2Fcb',
  },
  'POST /api/oauth/token': { form: { grant_type: 'authorization_code', code: 'not-a-code', client_id: 'unknown' } },
  'POST /api/oauth/revoke': { form: { token: 'unknown-token' } },
  'POST /api/oauth/register': { json: { redirect_uris: ['https://example.org/cb'], client_name: 'OpenAPI check' } },
  'POST /api/oauth/userinfo': { form: { access_token: 'not-a-token' } },
  'POST /mcp': { json: { jsonrpc: '2.0', id: 1, method: 'ping' } },
  'POST /.well-known/mcp': { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
}

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  )

/** JSON Pointer into the document, so a response schema's $refs resolve against its components. */
const pointer = (...parts: string[]) =>
  `openapi#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`

describe('identity OpenAPI document', () => {
  it('the OpenAPI document is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0')
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('the OpenAPI document covers the whole service, OAuth included', () => {
    const paths = Object.keys(document.paths)
    for (const path of [
      '/api/v1',
      '/api',
      '/api/v1/health',
      '/api/plans',
      '/api/v1/changelog',
      '/openapi.json',
      '/llms.txt',
      '/.well-known/mcp',
      '/mcp',
    ]) {
      expect(paths).toContain(path)
    }
    for (const path of [
      '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server',
      '/api/oauth/register',
      '/.well-known/jwks.json',
      '/api/oauth/token',
      '/api/oauth/revoke',
    ]) {
      expect(paths).toContain(path)
    }
  })

  it('live responses of every documented operation match the document', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    ajv.addSchema(document, 'openapi')
    const checked: string[] = []
    const mismatches: string[] = []
    for (const { path, method, operation } of operations()) {
      const key = `${method} ${path}`
      const fixture = REQUESTS[key] ?? {}
      const response = await fetch(`${identity.url}${path}${fixture.query ?? ''}`, {
        method,
        redirect: 'manual',
        ...(fixture.form
          ? {
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams(fixture.form).toString(),
            }
          : {}),
        ...(fixture.json
          ? {
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body: JSON.stringify(fixture.json),
            }
          : {}),
      })
      const status = String(response.status)
      const documented =
        operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default
      if (!documented) {
        mismatches.push(`${key} answered ${status}; documented: ${Object.keys(operation.responses).join(', ')}`)
        continue
      }
      const responseKey = operation.responses[status]
        ? status
        : operation.responses[`${status[0]}XX`]
          ? `${status[0]}XX`
          : 'default'
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim()
      const text = await response.text()
      const content = documented.content
      if (content && text.length > 0) {
        if (!content[mediaType]) {
          mismatches.push(`${key} ${status} sent ${mediaType}; documented: ${Object.keys(content).join(', ')}`)
          continue
        }
        if (mediaType.endsWith('json') && content[mediaType].schema) {
          const validate = ajv.compile({
            $ref: pointer(
              'paths',
              path,
              method.toLowerCase(),
              'responses',
              responseKey,
              'content',
              mediaType,
              'schema',
            ),
          })
          if (!validate(JSON.parse(text))) mismatches.push(`${key} ${status}: ${ajv.errorsText(validate.errors)}`)
        }
      }
      checked.push(`${key} ${status}`)
    }
    expect(mismatches).toEqual([])
    // Every operation was requested: the loop has no silent exits.
    expect(checked.length + mismatches.length).toBe(operations().length)
  })
})
