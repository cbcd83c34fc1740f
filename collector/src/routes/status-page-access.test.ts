import { randomBytes } from 'node:crypto'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createConsoleAuth, SESSION_COOKIE } from '../console/bff.ts'
import { createSession } from '../console/sessions.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id
const KEY = randomBytes(32)
let ip = 0
/** Each request from its own address, so only the throttling test meets a per-IP limit. */
const fresh = () => `10.31.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`
/** An unsigned JWT: the console reads its session's access token claims, it does not verify them. */
const accessTokenFor = (organizations: string[]) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
    JSON.stringify({ sub: 'someone', organizations: organizations.map((id) => ({ id, name: id })) }),
  ).toString('base64url')}.`

describe('private status pages and custom domains', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let proxied: Awaited<ReturnType<typeof buildCollectorApp>>
  const auth = { authorization: '' }

  const consoleAuth = () =>
    createConsoleAuth({
      sql: harness.ctx.sql,
      log: harness.ctx.log,
      sealKey: KEY,
      oidc: undefined,
      publicUrl: () => 'http://guard.test',
      sessionSeconds: 3600,
    })

  beforeAll(async () => {
    harness = await collectorForTest({
      GUARD_STATUS_PAGE_CACHE_SECONDS: '30',
      GUARD_STATUS_PAGE_PASSWORD_ATTEMPTS: '3',
      GUARD_PUBLIC_URL: 'http://guard.test',
    })
    auth.authorization = `Bearer ${harness.apiKey}`
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { stranger: userCaller('stranger', ['org-stranger']) }),
      console: consoleAuth(),
    })
    // The same collector behind a proxy at 10.99.0.0/16, whose X-Forwarded-For and -Proto are believed.
    proxied = await buildCollectorApp(
      { ...harness.ctx, env: { ...harness.ctx.env, GUARD_TRUSTED_PROXIES: ['10.99.0.0/16'] } },
      { console: consoleAuth() },
    )
  })
  afterAll(async () => {
    await proxied?.close()
    await app?.close()
    await harness?.close()
  })

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = auth) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const page = async (slug: string, isPublic = true) => {
    const created = await api('POST', '/api/status-pages', { name: `Page ${slug}`, slug, isPublic })
    expect(created.statusCode).toBe(201)
    return created.json().data.id as string
  }
  const visit = (url: string, headers: Record<string, string> = {}, remoteAddress = fresh()) =>
    app.inject({ method: 'GET', url, headers, remoteAddress })
  const everyView = (slug: string) => [
    `/status/${slug}`,
    `/api/status-pages/${slug}/public`,
    `/status/${slug}/feed.atom`,
    `/status/${slug}/badge.svg`,
    `/status/${slug}/summary.json`,
    `/status/${slug}/history`,
    `/api/status-pages/${slug}/public/history`,
  ]
  const submit = (slug: string, password: string, remoteAddress = fresh(), host?: string) =>
    app.inject({
      method: 'POST',
      url: `/status/${slug}/access`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(host ? { host } : {}) },
      payload: `password=${encodeURIComponent(password)}`,
      remoteAddress,
    })
  const cookieOf = (response: { headers: Record<string, unknown> }) =>
    String(response.headers['set-cookie']).split(';')[0]!

  describe('custom domains', () => {
    let id: string
    beforeAll(async () => {
      id = await page('shop-status')
      await page('other-status')
      const set = await api('PUT', `/api/status-pages/${id}/domain`, { customDomain: 'Status.Shop.test' })
      expect(set.statusCode).toBe(200)
      expect(set.json().data).toMatchObject({ customDomain: 'status.shop.test', mode: 'public' })
    })

    it('serves the page on its host name, with links, feed and badges on that host', async () => {
      const html = await visit('/', { host: 'status.shop.test' })
      expect(html.statusCode).toBe(200)
      expect(html.body).toContain('<title>Page shop-status status</title>')
      expect(html.body).toContain('href="/feed.atom"')
      expect(html.body).toContain('href="/status.json"')
      expect(html.body).not.toContain('/status/shop-status')
      const feed = await visit('/feed.atom', { host: 'status.shop.test:443' })
      expect(feed.statusCode).toBe(200)
      expect(feed.body).toContain('<link rel="alternate" href="http://status.shop.test"/>')
      expect(feed.body).toContain('http://status.shop.test/feed.atom')
      const badge = await visit('/badge.svg?label=shop', { host: 'status.shop.test' })
      expect(badge.statusCode).toBe(200)
      expect(badge.headers['content-type']).toContain('image/svg+xml')
      expect((await visit('/status.json', { host: 'status.shop.test' })).json().data.slug).toBe('shop-status')
      expect((await visit('/summary.json', { host: 'status.shop.test' })).statusCode).toBe(200)
      expect(html.body).toContain('href="/history"')
      const history = await visit('/history', { host: 'status.shop.test' })
      expect(history.statusCode).toBe(200)
      expect(history.body).toContain('href="/history"')
      expect(history.body).not.toContain('/status/shop-status')
      // The collector's own address for the page is untouched.
      const main = await visit('/status/shop-status')
      expect(main.statusCode).toBe(200)
      expect(main.body).toContain('href="/status/shop-status/feed.atom"')
    })

    it('serves nothing else on a custom domain, and nothing on an unconfigured host', async () => {
      for (const url of ['/status/other-status', '/api/status-pages', '/api/health', '/auth/login', '/anything']) {
        expect((await visit(url, { host: 'status.shop.test' })).statusCode, url).toBe(404)
      }
      expect((await visit('/feed.atom', { host: 'status.unknown.test' })).statusCode).toBe(404)
      expect((await visit('/status.json', { host: 'status.unknown.test' })).statusCode).toBe(404)
    })

    it('answers the TLS ask: 200 for a configured domain, 404 otherwise', async () => {
      const yes = await visit('/api/status-pages/custom-domains/ask?domain=status.shop.test')
      expect(yes.statusCode).toBe(200)
      expect(yes.json().data).toEqual({ domain: 'status.shop.test', allowed: true })
      expect((await visit('/api/status-pages/custom-domains/ask?domain=status.unknown.test')).statusCode).toBe(404)
      expect((await visit('/api/status-pages/custom-domains/ask')).statusCode).toBe(400)
    })

    it('refuses a taken domain, a malformed one and the public host, and follows a renamed slug', async () => {
      const other = await page('taken-status')
      expect(
        (await api('PUT', `/api/status-pages/${other}/domain`, { customDomain: 'status.shop.test' })).statusCode,
      ).toBe(409)
      for (const customDomain of [
        'https://status.example.com',
        'status',
        '10.0.0.1',
        'a b.example.com',
        'guard.test',
      ]) {
        const refused = await api('PUT', `/api/status-pages/${other}/domain`, { customDomain })
        expect(refused.statusCode, customDomain).toBe(400)
        expect(refused.json().message).toContain('customDomain')
      }
      await api('PUT', `/api/status-pages/${other}/domain`, { customDomain: 'taken.shop.test' })
      await api('PUT', `/api/status-pages/${other}`, { slug: 'renamed-status' })
      expect((await visit('/status.json', { host: 'taken.shop.test' })).json().data.slug).toBe('renamed-status')
      expect(
        (await api('PUT', `/api/status-pages/${other}/domain`, { customDomain: null })).json().data.customDomain,
      ).toBeNull()
      expect((await visit('/status.json', { host: 'taken.shop.test' })).statusCode).toBe(404)
    })

    it('checks the CNAME of the domain against the public host', async () => {
      const { checkStatusPageDomain } = await import('../services/status-pages/access/check-domain.ts')
      const caller = userCaller('ada', [ORG])
      const records: Record<string, Record<string, string[]>> = {
        'status.shop.test': { cname: ['Guard.test.'], a: ['192.0.2.7'] },
        'guard.test': { cname: [], a: ['192.0.2.7'] },
      }
      const lookup = (type: 'cname' | 'a' | 'aaaa') => async (host: string) => {
        const found = records[host]?.[type]
        if (!found?.length) throw Object.assign(new Error('ENODATA'), { code: 'ENODATA' })
        return found
      }
      const resolver = { resolveCname: lookup('cname'), resolve4: lookup('a'), resolve6: lookup('aaaa') }
      const check = () =>
        checkStatusPageDomain({ ctx: harness.ctx, caller, input: { id, requestHost: 'ignored.test' }, resolver })
      expect(await check()).toMatchObject({ pointsAtCollector: true, cname: ['guard.test'], expected: 'guard.test' })
      records['status.shop.test'] = { cname: ['elsewhere.example'], a: ['198.51.100.1'] }
      const wrong = await check()
      expect(wrong.pointsAtCollector).toBe(false)
      expect(wrong.message).toContain('not of guard.test')
    })
  })

  describe('password pages', () => {
    let id: string
    let otherCookie: string
    beforeAll(async () => {
      id = await page('vault-status')
      const other = await page('second-vault')
      expect((await api('PUT', `/api/status-pages/${id}/access`, { mode: 'password' })).statusCode).toBe(400)
      const short = await api('PUT', `/api/status-pages/${id}/access`, { mode: 'password', password: 'short' })
      expect(short.statusCode).toBe(400)
      expect(short.json().message).toContain('password')
      // Warmed while public: the kept answer must not be served once the page is private.
      expect((await visit('/status/vault-status')).statusCode).toBe(200)
      const set = await api('PUT', `/api/status-pages/${id}/access`, { mode: 'password', password: 'correct horse' })
      expect(set.statusCode).toBe(200)
      await api('PUT', `/api/status-pages/${other}/access`, { mode: 'password', password: 'correct horse' })
      otherCookie = cookieOf(await submit('second-vault', 'correct horse'))
    })

    it('never returns the password, and stores only its scrypt hash', async () => {
      const view = await api('GET', `/api/status-pages/${id}/access`)
      expect(view.json().data).toEqual({ mode: 'password', passwordSet: true, allowList: [], customDomain: null })
      expect(view.body).not.toContain('correct horse')
      expect((await api('GET', `/api/status-pages/${id}`)).body).not.toContain('scrypt')
      const { rows } = await harness.ctx.sql.query<{ password_hash: string }>(
        'SELECT password_hash FROM monitoring.status_pages WHERE id = $1',
        [id],
      )
      expect(rows[0]!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/)
    })

    it('shows the password form instead of the page, and hides every other view', async () => {
      const gate = await visit('/status/vault-status')
      expect(gate.statusCode).toBe(401)
      expect(gate.body).toContain('<form method="post" action="/status/vault-status/access">')
      expect(gate.body).not.toContain('Page vault-status')
      expect(gate.headers['cache-control']).toBe('private, no-store')
      expect(gate.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      for (const url of everyView('vault-status').slice(1)) {
        const hidden = await visit(url)
        expect(hidden.statusCode, url).toBe(404)
        expect(hidden.body, url).not.toContain('Page vault-status')
      }
    })

    it('throttles wrong passwords per client address', async () => {
      const address = fresh()
      for (let attempt = 0; attempt < 3; attempt++) {
        const wrong = await submit('vault-status', 'wrong guess', address)
        expect(wrong.statusCode).toBe(401)
        expect(wrong.body).toContain('That password is not right.')
        expect(wrong.headers['set-cookie']).toBeUndefined()
      }
      const throttled = await submit('vault-status', 'correct horse', address)
      expect(throttled.statusCode).toBe(429)
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
      expect(throttled.headers['set-cookie']).toBeUndefined()
    })

    it('opens every view with the right password, privately, with a cookie for this page only', async () => {
      const opened = await submit('vault-status', 'correct horse')
      expect(opened.statusCode).toBe(303)
      expect(opened.headers.location).toBe('/status/vault-status')
      const flags = String(opened.headers['set-cookie'])
      expect(flags).toMatch(/^guard_page_[\w-]{12}=/)
      expect(flags).toContain('HttpOnly')
      expect(flags).toContain('SameSite=Lax')
      expect(flags).toContain('Path=/')
      expect(flags).not.toContain('Secure')
      const cookie = cookieOf(opened)
      for (const url of everyView('vault-status')) {
        const shown = await visit(url, { cookie })
        expect(shown.statusCode, url).toBe(200)
        expect(shown.headers['cache-control'], url).toBe('private, no-store')
        expect(shown.headers['access-control-allow-origin'], url).toBeUndefined()
      }
      // Kept in memory after those reads, still not for a visitor without the cookie or with another page's.
      expect((await visit('/api/status-pages/vault-status/public')).statusCode).toBe(404)
      expect((await visit('/status/vault-status', { cookie: otherCookie })).statusCode).toBe(401)
      expect((await visit('/status/second-vault', { cookie: otherCookie })).statusCode).toBe(200)
      const forged = cookie.replace(/=(\d+)\./, (_all, expiry) => `=${Number(expiry) + 1000}.`)
      expect((await visit('/status/vault-status', { cookie: forged })).statusCode).toBe(401)
      const anyone = await visit('/status/shop-status')
      expect(anyone.headers['cache-control']).toContain('public')
    })

    it('ends visitor sessions when the password changes, and sets Secure behind a TLS proxy', async () => {
      const cookie = cookieOf(await submit('vault-status', 'correct horse'))
      await api('PUT', `/api/status-pages/${id}/access`, { mode: 'password', password: 'battery staple' })
      expect((await visit('/status/vault-status', { cookie })).statusCode).toBe(401)
      const secure = await proxied.inject({
        method: 'POST',
        url: '/status/vault-status/access',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-proto': 'https',
          'x-forwarded-for': fresh(),
        },
        payload: 'password=battery%20staple',
        remoteAddress: '10.99.0.1',
      })
      expect(secure.statusCode).toBe(303)
      expect(String(secure.headers['set-cookie'])).toContain('Secure')
    })
  })

  describe('IP allow-lists', () => {
    beforeAll(async () => {
      const id = await page('office-status')
      const bad = await api('PUT', `/api/status-pages/${id}/access`, { mode: 'ip', allowList: ['10.0.0.0/33'] })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().message).toContain('CIDR')
      expect((await api('PUT', `/api/status-pages/${id}/access`, { mode: 'ip' })).statusCode).toBe(400)
      const set = await api('PUT', `/api/status-pages/${id}/access`, {
        mode: 'ip',
        allowList: ['10.20.0.0/16', '2001:db8::/32'],
      })
      expect(set.statusCode).toBe(200)
    })

    it('lets in listed addresses only, the same 404 as an unknown page for others', async () => {
      for (const url of everyView('office-status')) {
        const inside = await visit(url, {}, '10.20.3.4')
        expect(inside.statusCode, url).toBe(200)
        expect(inside.headers['cache-control'], url).toBe('private, no-store')
        expect((await visit(url, {}, '10.21.0.1')).statusCode, url).toBe(404)
      }
      expect((await visit('/status/office-status', {}, '2001:db8::7')).statusCode).toBe(200)
    })

    it('believes X-Forwarded-For only from a trusted proxy', async () => {
      const forwarded = { 'x-forwarded-for': '10.20.3.4' }
      expect((await visit('/status/office-status', forwarded, '10.98.0.1')).statusCode).toBe(404)
      const viaProxy = (remoteAddress: string) =>
        proxied.inject({ method: 'GET', url: '/status/office-status', headers: forwarded, remoteAddress })
      expect((await viaProxy('10.99.0.1')).statusCode).toBe(200)
      expect((await viaProxy('10.98.0.1')).statusCode).toBe(404)
    })
  })

  describe('members of the organization', () => {
    const sessionOf = async (organizations: string[]) =>
      `${SESSION_COOKIE}=${
        (
          await createSession(harness.ctx.sql, KEY, {
            userId: 'someone',
            tokens: { accessToken: accessTokenFor(organizations) },
            accessExpiresAt: new Date(Date.now() + 600_000),
            lifetimeSeconds: 3600,
          })
        ).raw
      }`

    beforeAll(async () => {
      const id = await page('team-status')
      expect((await api('PUT', `/api/status-pages/${id}/access`, { mode: 'members' })).statusCode).toBe(200)
      await api('PUT', `/api/status-pages/${id}/domain`, { customDomain: 'team.shop.test' })
    })

    it('lets in a signed-in member through the console session, not a signed-in non-member', async () => {
      const member = await sessionOf([ORG])
      for (const url of everyView('team-status')) {
        expect((await visit(url, { cookie: member })).statusCode, url).toBe(200)
      }
      const outsider = await sessionOf(['org-stranger'])
      const gate = await visit('/status/team-status', { cookie: outsider })
      expect(gate.statusCode).toBe(401)
      expect(gate.body).toContain('href="/status/team-status/sign-in"')
      expect((await visit('/api/status-pages/team-status/public', { cookie: outsider })).statusCode).toBe(404)
      const refused = await visit('/status/team-status/sign-in', { cookie: outsider })
      expect(refused.statusCode).toBe(403)
      expect(refused.body).toContain('not as a member')
    })

    it('signs in through the console and hands over to the custom domain', async () => {
      const anonymous = await visit('/status/team-status/sign-in')
      expect(anonymous.statusCode).toBe(303)
      expect(anonymous.headers.location).toBe(
        `/auth/login?returnTo=${encodeURIComponent('/status/team-status/sign-in')}`,
      )
      const onDomain = await visit('/sign-in', { host: 'team.shop.test' })
      expect(onDomain.statusCode).toBe(303)
      expect(onDomain.headers.location).toBe('http://guard.test/status/team-status/sign-in?handoff=http')
      const member = await sessionOf([ORG])
      const handed = await visit('/status/team-status/sign-in?handoff=https', { cookie: member })
      expect(handed.statusCode).toBe(303)
      const location = new URL(String(handed.headers.location))
      expect(`${location.origin}${location.pathname}`).toBe('https://team.shop.test/access')
      expect((await visit('/', { host: 'team.shop.test', cookie: member })).statusCode).toBe(401)
      const landed = await visit(`/access${location.search}`, { host: 'team.shop.test' })
      expect(landed.statusCode).toBe(303)
      expect(landed.headers.location).toBe('/')
      const cookie = cookieOf(landed)
      expect((await visit('/', { host: 'team.shop.test', cookie })).statusCode).toBe(200)
      expect(String(landed.headers['set-cookie'])).toContain('Max-Age=3600')
      expect((await visit('/access?grant=1.forged', { host: 'team.shop.test' })).statusCode).toBe(404)
      const home = await visit('/status/team-status/sign-in', { cookie: member })
      expect(home.statusCode).toBe(303)
      expect(home.headers.location).toBe('/status/team-status')
      expect(home.headers['set-cookie']).toBeUndefined()
    })
  })
})
