import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server'
import * as oidc from 'openid-client'
import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HttpBrowser,
  hiddenField,
  SoftwareAuthenticator,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from '../oauth/testing.ts'
import { ensureAdminToken } from '../services/admin-tokens/ensure.ts'
import type { CreatedClient } from '../services/clients/create.ts'
import { setOrganizationSecondFactor } from '../services/factors/set-organization-policy.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createUser } from '../services/users/create.ts'

let identity: TestIdentity
let client: CreatedClient
let config: oidc.Configuration

beforeAll(async () => {
  identity = await startTestIdentity()
  client = await identity.client({
    firstParty: true,
    allowedScopes: ['openid', 'email', 'profile'],
    redirectUris: ['http://127.0.0.1:9/callback'],
  })
  config = await oidc.discovery(new URL(identity.url), client.client_id, client.client_secret ?? '', undefined, {
    execute: [oidc.allowInsecureRequests],
  })
}, 180_000)
afterAll(() => identity?.close())

const newUser = async (email: string) => {
  const user = await createUser(identity.sql, { email, password: TEST_PASSWORD, name: email, role: 'user' })
  await addMember(identity.sql, { organizationSlug: 'acme', userId: user.id, role: 'member' })
  return { id: user.id, email }
}

/** An authorization request built by openid-client, and the checks its answer must pass. */
async function startAuthorization(params: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier()
  const nonce = oidc.randomNonce()
  const state = oidc.randomState()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: 'http://127.0.0.1:9/callback',
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
    ...params,
  })
  return { url, checks: { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state } }
}

const location = (response: Response) => new URL(response.headers.get('location') ?? '', identity.url)

/** Fills the sign-in form the authorization request leads to; returns where the password sends the browser. */
async function signInWithPassword(browser: HttpBrowser, authorize: URL, email: string): Promise<URL> {
  const toSignIn = await browser.request(authorize.href)
  expect(location(toSignIn).pathname).toBe('/sign-in')
  const page = await (await browser.request(location(toSignIn).href)).text()
  const posted = await browser.request(`${identity.url}/sign-in`, {
    form: {
      csrf: hiddenField(page, 'csrf'),
      return_to: hiddenField(page, 'return_to'),
      email,
      password: TEST_PASSWORD,
    },
  })
  expect(posted.status).toBe(303)
  return location(posted)
}

/** Follows the authorization request to the client's callback and lets openid-client redeem and check it. */
async function redeem(browser: HttpBrowser, authorization: Awaited<ReturnType<typeof startAuthorization>>) {
  const answer = await browser.request(authorization.url.href)
  const callback = location(answer)
  expect(callback.origin, `authorize sent the browser to ${callback.href}`).toBe('http://127.0.0.1:9')
  const tokens = await oidc.authorizationCodeGrant(config, callback, authorization.checks)
  return tokens.claims()
}

async function submitCode(browser: HttpBrowser, secondFactorPage: URL, code: string): Promise<Response> {
  const page = await (await browser.request(secondFactorPage.href)).text()
  return browser.request(`${identity.url}/sign-in/second-factor`, {
    form: { csrf: hiddenField(page, 'csrf'), return_to: hiddenField(page, 'return_to'), code },
  })
}

/** Sets up TOTP from the security page of a signed-in browser; returns the secret and the recovery codes shown. */
async function enrolTotp(browser: HttpBrowser, now = Date.now()) {
  const security = await (await browser.request(`${identity.url}/account/security`)).text()
  const started = await browser.request(`${identity.url}/account/security/totp`, {
    form: { csrf: hiddenField(security, 'csrf') },
  })
  const page = await started.text()
  expect(page).toContain('<svg')
  const secret = page.match(/Key: <code>([A-Z2-7]+)<\/code>/)?.[1] ?? ''
  const confirmed = await browser.request(`${identity.url}/account/security/totp/confirm`, {
    form: { csrf: hiddenField(page, 'csrf'), code: await generate({ secret, epoch: Math.floor(now / 1000) }) },
  })
  const result = await confirmed.text()
  expect(confirmed.status).toBe(200)
  const recovery = [...result.matchAll(/<code>([a-z2-7]{5}-[a-z2-7]{5}-[a-z2-7]{5})<\/code>/g)].map(
    ([, code]) => code ?? '',
  )
  return { secret, recovery }
}

/** Registers a passkey from the security page of a signed-in browser through the JSON routes. */
async function registerPasskey(browser: HttpBrowser, authenticator: SoftwareAuthenticator, name = 'Laptop') {
  const security = await (await browser.request(`${identity.url}/account/security`)).text()
  const csrf = security.match(/data-passkey-register data-csrf="([^"]+)"/)?.[1] ?? ''
  const options = await browser.request(`${identity.url}/account/security/passkeys/options`, { json: { csrf } })
  expect(options.status).toBe(200)
  const response = authenticator.create((await options.json()) as PublicKeyCredentialCreationOptionsJSON, identity.url)
  const verified = await browser.request(`${identity.url}/account/security/passkeys/verify`, {
    json: { csrf, name, response },
  })
  expect(verified.status, await verified.clone().text()).toBe(200)
}

/** The CSRF token passkeys.js sends, from the passkey button. */
const passkeyCsrf = (page: string) => page.match(/data-passkey="[^"]+" data-csrf="([^"]+)"/)?.[1] ?? ''

/** A passkey sign-in (passwordless, or the second factor of the pending sign-in) from a page holding a CSRF token. */
async function passkeyStep(
  browser: HttpBrowser,
  authenticator: SoftwareAuthenticator,
  input: { mode: 'passwordless' | 'second-factor'; pageUrl: string; returnTo: string },
): Promise<Response> {
  const csrf = passkeyCsrf(await (await browser.request(input.pageUrl)).text())
  const options = await browser.request(`${identity.url}/sign-in/passkey/options`, { json: { csrf, mode: input.mode } })
  expect(options.status).toBe(200)
  const response = authenticator.get((await options.json()) as PublicKeyCredentialRequestOptionsJSON, identity.url)
  return browser.request(`${identity.url}/sign-in/passkey/verify`, {
    json: { csrf, mode: input.mode, return_to: input.returnTo, response },
  })
}

describe('second factors', () => {
  it('discovery lists the acr values and the amr and acr claims', async () => {
    const metadata = config.serverMetadata()
    expect(metadata.acr_values_supported).toEqual(['urn:guard:acr:sfa', 'urn:guard:acr:mfa', 'urn:guard:acr:phr'])
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['amr', 'acr']))
  })

  it('a password alone gives amr pwd and acr sfa, checked by openid-client', async () => {
    const browser = new HttpBrowser()
    const authorization = await startAuthorization()
    await signInWithPassword(browser, authorization.url, identity.user.email)
    const claims = await redeem(browser, authorization)
    expect(claims?.amr).toEqual(['pwd'])
    expect(claims?.acr).toBe('urn:guard:acr:sfa')
  })

  it('TOTP: enrolled with a QR code, then asked after the password; a used code is refused the second time', async () => {
    const user = await newUser('tom@example.org')
    const first = new HttpBrowser()
    await signInWithPassword(first, (await startAuthorization()).url, user.email)
    const { secret, recovery } = await enrolTotp(first)
    expect(recovery).toHaveLength(10)

    const browser = new HttpBrowser()
    const authorization = await startAuthorization()
    const next = await signInWithPassword(browser, authorization.url, user.email)
    expect(next.pathname).toBe('/sign-in/second-factor')
    // No session yet: authorize still wants a sign-in.
    expect(location(await browser.request(authorization.url.href)).pathname).toBe('/sign-in')
    // The code of the step after the one enrolment spent (the enrolment's own is spent).
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
    const accepted = await submitCode(browser, next, code)
    expect(accepted.status).toBe(303)
    const claims = await redeem(browser, authorization)
    expect(claims?.amr).toEqual(['pwd', 'otp', 'mfa'])
    expect(claims?.acr).toBe('urn:guard:acr:mfa')

    const replay = new HttpBrowser()
    const again = await signInWithPassword(replay, (await startAuthorization()).url, user.email)
    const refused = await submitCode(replay, again, code)
    expect(refused.status).toBe(401)
    expect(await refused.text()).toContain('wrong or was already used')
  })

  it('a recovery code signs in once, and is refused the second time', async () => {
    const user = await newUser('rita@example.org')
    const first = new HttpBrowser()
    await signInWithPassword(first, (await startAuthorization()).url, user.email)
    const { recovery } = await enrolTotp(first)
    const code = recovery[3] ?? ''

    const browser = new HttpBrowser()
    const next = await signInWithPassword(browser, (await startAuthorization()).url, user.email)
    expect((await submitCode(browser, next, code.toUpperCase())).status).toBe(303)
    const other = new HttpBrowser()
    const again = await signInWithPassword(other, (await startAuthorization()).url, user.email)
    expect((await submitCode(other, again, code)).status).toBe(401)
  })

  it('wrong codes lock the second factor after five tries, the right one included', async () => {
    const user = await newUser('lock@example.org')
    const first = new HttpBrowser()
    await signInWithPassword(first, (await startAuthorization()).url, user.email)
    const { secret } = await enrolTotp(first)
    const browser = new HttpBrowser()
    const next = await signInWithPassword(browser, (await startAuthorization()).url, user.email)
    const statuses: number[] = []
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await submitCode(browser, next, '000000')).status)
    const right = await submitCode(browser, next, await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }))
    expect(statuses).toEqual([401, 401, 401, 401, 401])
    expect(right.status).toBe(429)
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/)
  }, 60_000)

  it('passkeys: registered, then a passkey alone signs in (amr hwk mfa, acr phr); a cloned counter is refused; removal', async () => {
    const user = await newUser('pat@example.org')
    const authenticator = new SoftwareAuthenticator()
    const first = new HttpBrowser()
    await signInWithPassword(first, (await startAuthorization()).url, user.email)
    await registerPasskey(first, authenticator)
    const security = await (await first.request(`${identity.url}/account/security`)).text()
    expect(security).toContain('<strong>Laptop</strong> · this device only')

    const browser = new HttpBrowser()
    const authorization = await startAuthorization()
    const signInPage = location(await browser.request(authorization.url.href))
    const returnTo = signInPage.searchParams.get('return_to') ?? ''
    const signedIn = await passkeyStep(browser, authenticator, {
      mode: 'passwordless',
      pageUrl: signInPage.href,
      returnTo,
    })
    expect(signedIn.status).toBe(200)
    expect(await signedIn.json()).toEqual({ redirect: returnTo })
    const claims = await redeem(browser, authorization)
    expect(claims?.amr).toEqual(['hwk', 'mfa'])
    expect(claims?.acr).toBe('urn:guard:acr:phr')

    // A clone repeats a signature counter the server has already seen.
    const [credential] = authenticator.credentials.values()
    if (credential) credential.counter = 0
    const cloned = await passkeyStep(new HttpBrowser(), authenticator, {
      mode: 'passwordless',
      pageUrl: signInPage.href,
      returnTo,
    })
    expect(cloned.status).toBe(401)

    const listed = await (await first.request(`${identity.url}/account/security`)).text()
    const id = listed.match(/name="id" value="([^"]+)"/)?.[1] ?? ''
    const removed = await first.request(`${identity.url}/account/security/passkeys/remove`, {
      form: { csrf: hiddenField(listed, 'csrf'), id },
    })
    expect(await removed.text()).toContain('The passkey is removed.')
    const gone = await passkeyStep(new HttpBrowser(), authenticator, {
      mode: 'passwordless',
      pageUrl: signInPage.href,
      returnTo,
    })
    expect(gone.status).toBe(401)
  })

  it('password and then a synced passkey as the second factor give amr pwd swk mfa', async () => {
    const user = await newUser('sam@example.org')
    const authenticator = new SoftwareAuthenticator({ backupEligible: true, counter: false })
    const first = new HttpBrowser()
    await signInWithPassword(first, (await startAuthorization()).url, user.email)
    await registerPasskey(first, authenticator, 'Phone')

    const browser = new HttpBrowser()
    const authorization = await startAuthorization()
    const next = await signInWithPassword(browser, authorization.url, user.email)
    expect(next.pathname).toBe('/sign-in/second-factor')
    const done = await passkeyStep(browser, authenticator, {
      mode: 'second-factor',
      pageUrl: next.href,
      returnTo: next.searchParams.get('return_to') ?? '',
    })
    expect(done.status).toBe(200)
    const claims = await redeem(browser, authorization)
    expect(claims?.amr).toEqual(['pwd', 'swk', 'mfa'])
  })

  it('another user’s passkey is no second factor for this sign-in', async () => {
    const owner = await newUser('kim@example.org')
    const intruder = await newUser('ivan@example.org')
    const authenticator = new SoftwareAuthenticator()
    const kim = new HttpBrowser()
    await signInWithPassword(kim, (await startAuthorization()).url, owner.email)
    await registerPasskey(kim, authenticator)
    const ivan = new HttpBrowser()
    await signInWithPassword(ivan, (await startAuthorization()).url, intruder.email)
    await registerPasskey(ivan, new SoftwareAuthenticator())

    const browser = new HttpBrowser()
    const next = await signInWithPassword(browser, (await startAuthorization()).url, intruder.email)
    const csrf = passkeyCsrf(await (await browser.request(next.href)).text())
    const options = await browser.request(`${identity.url}/sign-in/passkey/options`, {
      json: { csrf, mode: 'second-factor' },
    })
    const [kimsCredential] = authenticator.credentials.keys()
    const response = authenticator.get(
      (await options.json()) as PublicKeyCredentialRequestOptionsJSON,
      identity.url,
      kimsCredential,
    )
    const refused = await browser.request(`${identity.url}/sign-in/passkey/verify`, {
      json: { csrf, mode: 'second-factor', return_to: next.searchParams.get('return_to'), response },
    })
    expect(refused.status).toBe(401)
  })

  it('an organization requiring a second factor sends a member without one to enrolment, with no code until enrolled', async () => {
    const org = await identity.sql.query<{ id: string }>("SELECT id FROM identity.organizations WHERE slug = 'acme'")
    const user = await newUser('eve@example.org')
    await setOrganizationSecondFactor(identity.sql, {
      organizationId: org.rows[0]?.id ?? '',
      policy: 'passkey_or_totp',
    })
    try {
      const browser = new HttpBrowser()
      const authorization = await startAuthorization()
      await signInWithPassword(browser, authorization.url, user.email)
      const enrol = location(await browser.request(authorization.url.href))
      expect(enrol.pathname).toBe('/account/security')
      expect(enrol.searchParams.get('return_to')).toMatch(/^\/api\/oauth\/authorize\?/)
      expect(await (await browser.request(enrol.href)).text()).toContain('Your organization requires a second factor')
      const silent = await browser.request((await startAuthorization({ prompt: 'none' })).url.href)
      expect(location(silent).searchParams.get('error')).toBe('interaction_required')

      await enrolTotp(browser)
      const claims = await redeem(browser, authorization)
      expect(claims?.amr).toEqual(['pwd', 'otp', 'mfa'])
    } finally {
      await setOrganizationSecondFactor(identity.sql, { organizationId: org.rows[0]?.id ?? '', policy: 'off' })
    }
  })

  it('acr_values asks for a step-up: a TOTP session proves a passkey before the code (acr phr)', async () => {
    const user = await newUser('step@example.org')
    const authenticator = new SoftwareAuthenticator()
    const browser = new HttpBrowser()
    await signInWithPassword(browser, (await startAuthorization()).url, user.email)
    const { secret } = await enrolTotp(browser)
    await registerPasskey(browser, authenticator)

    const fresh = new HttpBrowser()
    const next = await signInWithPassword(fresh, (await startAuthorization()).url, user.email)
    await submitCode(fresh, next, await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }))

    const authorization = await startAuthorization({ acr_values: 'urn:guard:acr:phr' })
    const stepUp = location(await fresh.request(authorization.url.href))
    expect(stepUp.pathname).toBe('/sign-in/second-factor')
    expect(stepUp.searchParams.get('need')).toBe('urn:guard:acr:phr')
    const page = await (await fresh.request(stepUp.href)).text()
    expect(page).not.toContain('name="code"')
    const done = await passkeyStep(fresh, authenticator, {
      mode: 'second-factor',
      pageUrl: stepUp.href,
      returnTo: stepUp.searchParams.get('return_to') ?? '',
    })
    expect(done.status).toBe(200)
    const claims = await redeem(fresh, authorization)
    expect(claims?.amr).toEqual(['pwd', 'otp', 'hwk', 'mfa'])
    expect(claims?.acr).toBe('urn:guard:acr:phr')
  })

  it('a password-only session cannot add a passkey once the user has a second factor', async () => {
    const user = await newUser('late@example.org')
    const old = new HttpBrowser()
    await signInWithPassword(old, (await startAuthorization()).url, user.email)
    const current = new HttpBrowser()
    await signInWithPassword(current, (await startAuthorization()).url, user.email)
    await enrolTotp(current)
    const security = await old.request(`${identity.url}/account/security`)
    expect(location(security).pathname).toBe('/sign-in/second-factor')
    const page = await (await old.request(`${identity.url}/account`)).text()
    const options = await old.request(`${identity.url}/account/security/passkeys/options`, {
      json: { csrf: hiddenField(page, 'csrf') },
    })
    expect(options.status).toBe(403)
  })

  it('an admin resets the factors of a user who lost them: audited, and the password alone signs in again', async () => {
    const user = await newUser('lost@example.org')
    const browser = new HttpBrowser()
    await signInWithPassword(browser, (await startAuthorization()).url, user.email)
    await enrolTotp(browser)
    const token = (await ensureAdminToken(identity.sql)) ?? ''
    const reset = await fetch(`${identity.url}/api/v1/admin/users/${user.id}/second-factors`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await reset.json()).toEqual({ passkeys: 0, totp: true, recoveryCodes: 10 })
    const { rows } = await identity.sql.query<{ target_id: string }>(
      "SELECT target_id FROM identity.audit_log WHERE action = 'user.second_factors_reset'",
    )
    expect(rows.map((row) => row.target_id)).toEqual([user.id])
    const next = await signInWithPassword(new HttpBrowser(), (await startAuthorization()).url, user.email)
    expect(next.pathname).toBe('/api/oauth/authorize')
  })
})
