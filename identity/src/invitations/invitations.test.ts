import { createTransport } from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HttpBrowser,
  hiddenField,
  obtainTokens,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from '../oauth/testing.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createUser } from '../services/users/create.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let ownerToken: string

beforeAll(async () => {
  identity = await startTestIdentity()
  const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  ownerToken = (await obtainTokens(identity, app, { scope: 'openid' })).access_token
})
afterAll(() => identity?.close())

const invite = (body: unknown, token = ownerToken, org = 'acme') =>
  fetch(`${identity.url}/api/v1/organizations/${org}/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

/** Opens the link in `browser` and submits its form with `fields`; returns the page answered. */
async function follow(browser: HttpBrowser, link: string, fields: Record<string, string> = {}) {
  const page = await browser.request(link)
  const text = await page.text()
  if (page.status !== 200 || !text.includes('name="csrf"')) return { status: page.status, text }
  const answer = await browser.request(`${identity.url}/invitations/accept`, {
    form: { csrf: hiddenField(text, 'csrf'), token: hiddenField(text, 'token'), ...fields },
  })
  return { status: answer.status, text: await answer.text() }
}

async function roleIn(email: string) {
  const { rows } = await identity.sql.query<{ role: string }>(
    `SELECT m.role FROM identity.memberships m JOIN identity.users u ON u.id = m.user_id
      WHERE lower(u.email) = lower($1) AND m.organization_id = $2`,
    [email, identity.organization.id],
  )
  return rows[0]?.role
}

describe('invitations', () => {
  it('an owner invites a new address; the single-use link sets a name and password and joins', async () => {
    const response = await invite({ email: 'new@example.org', role: 'member' })
    expect(response.status).toBe(201)
    const issued = (await response.json()) as { link: string; emailed: boolean; invitation: { status: string } }
    expect(issued).toMatchObject({ emailed: false, invitation: { status: 'pending' } })
    expect(issued.link).toMatch(/\/invitations\/accept\?token=/)

    const joined = await follow(new HttpBrowser(), issued.link, { name: 'Nina', password: 'nina-password-long' })
    expect(joined.status).toBe(200)
    expect(joined.text).toContain('You joined Acme')
    expect(await roleIn('new@example.org')).toBe('member')

    const again = await follow(new HttpBrowser(), issued.link, { name: 'Mallory', password: 'mallory-password' })
    expect(again.status).toBe(400)
    expect((await invite({ email: 'new@example.org' })).status).toBe(409)
  })

  it('an existing user signs in from the link and accepts; another signed-in user may not', async () => {
    await createUser(identity.sql, { email: 'frank@example.org', password: TEST_PASSWORD, name: 'Frank' })
    const { link } = (await (await invite({ email: 'frank@example.org', role: 'viewer' })).json()) as { link: string }

    const stranger = new HttpBrowser()
    await createUser(identity.sql, { email: 'gina@example.org', password: TEST_PASSWORD, name: 'Gina' })
    const first = await stranger.request(link)
    const signInHref = (await first.text()).match(/href="([^"]+)"/)?.[1]?.replaceAll('&amp;', '&') ?? ''
    const signIn = async (browser: HttpBrowser, email: string) => {
      const page = await (await browser.request(new URL(signInHref, identity.url).href)).text()
      const back = await browser.request(`${identity.url}/sign-in`, {
        form: {
          csrf: hiddenField(page, 'csrf'),
          return_to: hiddenField(page, 'return_to'),
          email,
          password: TEST_PASSWORD,
        },
      })
      return new URL(back.headers.get('location') ?? '', identity.url).href
    }
    const strangerBack = await signIn(stranger, 'gina@example.org')
    expect((await follow(stranger, strangerBack)).status).toBe(403)

    const frank = new HttpBrowser()
    const back = await signIn(frank, 'frank@example.org')
    expect(back).toBe(link)
    const accepted = await follow(frank, back)
    expect(accepted.status).toBe(200)
    expect(await roleIn('frank@example.org')).toBe('viewer')
  })

  it('members who are not owners or admins cannot invite; only an owner invites an owner', async () => {
    const user = await createUser(identity.sql, { email: 'hal@example.org', password: TEST_PASSWORD, name: 'Hal' })
    await addMember(identity.sql, { organizationSlug: 'acme', userId: user.id, role: 'admin' })
    const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
    const hal = { ...identity, user: { id: user.id, email: user.email } }
    const halToken = (await obtainTokens(hal, app, { scope: 'openid' })).access_token
    expect((await invite({ email: 'x@example.org', role: 'owner' }, halToken)).status).toBe(403)
    expect((await invite({ email: 'x@example.org', role: 'admin' }, halToken)).status).toBe(201)
    await addMember(identity.sql, { organizationSlug: 'acme', userId: user.id, role: 'member' })
    expect((await invite({ email: 'y@example.org' }, halToken)).status).toBe(403)
    expect((await fetch(`${identity.url}/api/v1/organizations/acme/invitations`)).status).toBe(401)
  })

  it("an owner's token in a third-party application cannot invite: membership is no scope's to give", async () => {
    const thirdParty = await identity.client({ name: 'Helpful app', redirectUris: [REDIRECT] })
    const token = (await obtainTokens(identity, thirdParty, { scope: 'openid read' })).access_token
    const refused = await invite({ email: 'mallory@evil.test', role: 'admin' }, token)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' })
    const { rows } = await identity.sql.query("SELECT 1 FROM identity.invitations WHERE email = 'mallory@evil.test'")
    expect(rows).toHaveLength(0)
  })

  it('a revoked or expired link no longer works', async () => {
    const issue = async (email: string) =>
      (await (await invite({ email })).json()) as { link: string; invitation: { id: string } }
    const revoked = await issue('rev@example.org')
    const deleted = await fetch(`${identity.url}/api/v1/organizations/acme/invitations/${revoked.invitation.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ownerToken}` },
    })
    expect(deleted.status).toBe(200)
    expect((await follow(new HttpBrowser(), revoked.link)).status).toBe(400)
    const expired = await issue('exp@example.org')
    await identity.sql.query("UPDATE identity.invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [
      expired.invitation.id,
    ])
    expect((await follow(new HttpBrowser(), expired.link)).status).toBe(400)
  })

  it('with SMTP configured the link is e-mailed, not answered', async () => {
    const received: string[] = []
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let message = ''
        stream.on('data', (chunk: Buffer) => {
          message += chunk.toString()
        })
        stream.on('end', () => {
          received.push(message)
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    const port = (smtp.server.address() as { port: number }).port
    identity.ctx.mailer = {
      from: 'Guard <guard@localhost>',
      transport: createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }),
    }
    try {
      const issued = (await (await invite({ email: 'mail@example.org' })).json()) as Record<string, unknown>
      expect(issued).toMatchObject({ emailed: true })
      expect(issued).not.toHaveProperty('link')
      expect(received).toHaveLength(1)
      const link = received[0]!
        .replace(/=\r?\n/g, '')
        .match(/https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_=-]+/)?.[0]
      expect(link).toBeDefined()
      const joined = await follow(new HttpBrowser(), link!.replace(/=3D/g, '='), {
        name: 'Mia',
        password: 'mia-password-long',
      })
      expect(joined.status).toBe(200)
    } finally {
      identity.ctx.mailer = undefined
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  })
})
