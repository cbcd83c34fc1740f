import { createLogger, openTestRelationalStore, type RelationalStore } from '@guard/shared'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIdentityApp } from '../app.ts'
import { prepareOAuth } from '../oauth/setup.ts'
import { TEST_SECRET_KEY } from '../oauth/testing.ts'
import { migrateIdentity } from '../server.ts'
import { prefersHtml } from './landing.ts'

/** What Chromium and Firefox send for a page. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const CONSOLE = 'http://127.0.0.1:4001'

describe('identity for a person who opens it in a browser', () => {
  let sql: RelationalStore
  let app: FastifyInstance
  let consoleUrl: string | undefined

  beforeAll(async () => {
    sql = await openTestRelationalStore()
    await migrateIdentity(sql)
    const log = createLogger({ name: 'identity-test', level: 'silent' })
    const oauth = await prepareOAuth({
      sql,
      log,
      env: { GUARD_SECRET_KEY: TEST_SECRET_KEY, GUARD_DATA_DIR: '/nonexistent' },
      issuer: 'http://127.0.0.1:4000',
    })
    app = await buildIdentityApp({ log, oauth, consoleUrl: () => consoleUrl })
  })
  afterAll(async () => {
    await app?.close()
    await sql?.close()
  })

  const get = (url: string, accept?: string) =>
    app.inject({ method: 'GET', url, headers: accept === undefined ? {} : { accept } })

  it('sends the root to the console, and links it from a page for any other unknown path', async () => {
    consoleUrl = CONSOLE
    const root = await get('/', BROWSER)
    expect(root.statusCode).toBe(302)
    expect(root.headers.location).toBe(`${CONSOLE}/`)
    expect(root.headers.vary).toBe('Accept')

    const unknown = await get('/dashboard?x=1', BROWSER)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.headers['content-type']).toMatch(/^text\/html/)
    expect(unknown.body).toContain(`href="${CONSOLE}/"`)
    expect(unknown.body).toContain('href="/account"')
  })

  it('sends the root to the account page, which asks for a sign-in, when no console is known', async () => {
    consoleUrl = undefined
    const root = await get('/', BROWSER)
    expect(root.statusCode).toBe(302)
    expect(root.headers.location).toBe('/account')
    expect((await get('/account', BROWSER)).headers.location).toMatch(/^\/sign-in\?/)
  })

  it('keeps the JSON 404 problem for API clients, curl and anything that is not a GET', async () => {
    consoleUrl = CONSOLE
    for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/html;q=0.5']) {
      for (const url of ['/', '/dashboard']) {
        const response = await get(url, accept)
        expect(response.statusCode, `${url} with ${accept}`).toBe(404)
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND', status: 404 })
      }
    }
    const posted = await app.inject({ method: 'POST', url: '/', headers: { accept: BROWSER } })
    expect(posted.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('reads Accept by quality and specificity', () => {
    expect(prefersHtml(BROWSER)).toBe(true)
    expect(prefersHtml('text/*')).toBe(true)
    expect(prefersHtml('text/html;q=0, */*')).toBe(false)
    expect(prefersHtml('application/json;q=0.9, text/html')).toBe(true)
    expect(prefersHtml('*/*')).toBe(false)
    expect(prefersHtml(undefined)).toBe(false)
  })
})
