import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpBrowser, hiddenField, startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../oauth/testing.ts'
import type { CreatedClient } from '../services/clients/create.ts'
import { createFederationProvider } from '../services/federation/create-provider.ts'
import type { FederationProviderInput } from '../services/federation/provider.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createUser } from '../services/users/create.ts'

const APP_CALLBACK = 'http://127.0.0.1:9/callback'

/** A second identity is the company's OpenID provider; the first is Guard, its relying party. */
let upstream: TestIdentity
let guard: TestIdentity
let upstreamClient: CreatedClient
let consoleApp: CreatedClient
let rp: client.Configuration

beforeAll(async () => {
  ;[upstream, guard] = await Promise.all([startTestIdentity(), startTestIdentity()])
  upstreamClient = await upstream.client({
    name: 'Guard',
    redirectUris: [`${guard.url}/sign-in/federation/callback`],
    firstParty: true,
  })
  consoleApp = await guard.client({ name: 'Console', redirectUris: [APP_CALLBACK], firstParty: true })
  rp = await client.discovery(
    new URL(guard.url),
    consoleApp.client_id,
    undefined,
    client.ClientSecretPost(consoleApp.client_secret ?? ''),
    { execute: [client.allowInsecureRequests] },
  )
  // Two identities start: on a busy machine that is longer than the default minute.
}, 180_000)
afterAll(async () => {
  await Promise.all([upstream?.close(), guard?.close()])
})

/** A person of the upstream, with the upstream's platform role (its `role` claim). */
async function upstreamPerson(email: string, role: 'user' | 'admin' = 'user') {
  await createUser(upstream.sql, { email, password: TEST_PASSWORD, name: email.split('@')[0] ?? email, role })
  return { email, password: TEST_PASSWORD }
}

async function provider(input: Partial<FederationProviderInput>, organizationId: string | null = null) {
  return createFederationProvider({
    sql: guard.sql,
    secretKey: guard.ctx.secrets.federationSecrets,
    allowPrivate: true,
    organizationId,
    input: {
      name: 'Corp',
      issuer: upstream.url,
      client_id: upstreamClient.client_id,
      client_secret: upstreamClient.client_secret,
      ...input,
    },
  })
}

interface Journey {
  browser: HttpBrowser
  /** The console's authorization request, as openid-client built it. */
  verifier: string
  state: string
  nonce: string
  /** The sign-in page Guard showed, with its return_to. */
  signInPage: string
  returnTo: string
}

/** The console sends a fresh browser to Guard's authorize endpoint, which shows the sign-in page. */
async function openConsoleSignIn(): Promise<Journey> {
  const browser = new HttpBrowser()
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: APP_CALLBACK,
    scope: 'openid email profile organizations',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  const toSignIn = await browser.request(url.href)
  const page = await (await browser.request(new URL(toSignIn.headers.get('location') ?? '', guard.url).href)).text()
  return { browser, verifier, state, nonce, signInPage: page, returnTo: hiddenField(page, 'return_to') }
}

/**
 * Clicks "Sign in with …" for `providerId`, signs in at the upstream with `person`'s password
 * and follows redirects (cookies kept) until the browser leaves both identities, or one answers
 * a page. Returns that last response's address, or the page.
 */
type Outcome = { leftTo: URL } | { status: number; page: string }

async function federate(
  journey: Journey,
  providerId: string,
  person: { email: string; password: string },
): Promise<Outcome> {
  let next = new URL(
    `${guard.url}/sign-in/federation?${new URLSearchParams({ provider: providerId, return_to: journey.returnTo })}`,
  )
  for (let step = 0; step < 12; step++) {
    if (next.origin !== guard.url && next.origin !== upstream.url) return { leftTo: next }
    let response = await journey.browser.request(next.href)
    if (response.status === 200 && next.origin === upstream.url && next.pathname === '/sign-in') {
      const page = await response.text()
      response = await journey.browser.request(`${upstream.url}/sign-in`, {
        form: {
          csrf: hiddenField(page, 'csrf'),
          return_to: hiddenField(page, 'return_to'),
          email: person.email,
          password: person.password,
        },
      })
    }
    const location = response.headers.get('location')
    if (!location) return { status: response.status, page: await response.text() }
    next = new URL(location, next)
  }
  throw new Error('too many redirects')
}

/** The console redeems its code with openid-client, which verifies Guard's ID token. */
async function redeem(journey: Journey, callback: URL) {
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    pkceCodeVerifier: journey.verifier,
    expectedState: journey.state,
    expectedNonce: journey.nonce,
    idTokenExpected: true,
  })
  const claims = tokens.claims()
  if (!claims) throw new Error('no ID token')
  return { tokens, claims }
}

describe('sign-in through an upstream OpenID provider', () => {
  it('signs a linked person in with the upstream and the console gets Guard tokens with amr fed', async () => {
    const corp = await provider({ name: 'Corp SSO', jit_provisioning: true })
    const person = await upstreamPerson('fay@corp.example')
    const journey = await openConsoleSignIn()
    expect(journey.signInPage).toContain('Sign in with Corp SSO')
    const first = await federate(journey, corp.id, person)
    if (!('leftTo' in first)) throw new Error(`no code: ${first.status} ${first.page}`)
    const { tokens, claims } = await redeem(journey, first.leftTo)
    expect(claims.amr).toEqual(['fed'])
    expect(claims.email).toBe('fay@corp.example')
    const info = await client.fetchUserInfo(rp, tokens.access_token, claims.sub)
    expect(info.email).toBe('fay@corp.example')

    // The second time the link (issuer + subject) finds the same Guard user, not a new one.
    const again = await openConsoleSignIn()
    const second = await federate(again, corp.id, person)
    if (!('leftTo' in second)) throw new Error('no code the second time')
    expect((await redeem(again, second.leftTo)).claims.sub).toBe(claims.sub)
    const { rows } = await guard.sql.query('SELECT 1 FROM identity.users WHERE lower(email) = $1', [person.email])
    expect(rows).toHaveLength(1)
  })

  it('refuses an unknown person when just-in-time provisioning is off, and creates nobody', async () => {
    const strict = await provider({ name: 'Strict', jit_provisioning: false })
    const person = await upstreamPerson('gus@corp.example')
    const outcome = await federate(await openConsoleSignIn(), strict.id, person)
    expect(outcome).toMatchObject({ status: 403 })
    expect('page' in outcome && outcome.page).toContain('does not create accounts')
    const { rows } = await guard.sql.query('SELECT 1 FROM identity.users WHERE email = $1', [person.email])
    expect(rows).toHaveLength(0)
  })

  it("refuses an e-mail outside the provider's allowed domains", async () => {
    const domains = await provider({ name: 'Domains', jit_provisioning: true, allowed_domains: ['corp.example'] })
    const person = await upstreamPerson('hal@elsewhere.example')
    const outcome = await federate(await openConsoleSignIn(), domains.id, person)
    expect(outcome).toMatchObject({ status: 403 })
    expect('page' in outcome && outcome.page).toContain('not of a domain allowed')
  })

  it('links an existing account by e-mail only when allowed and the upstream vouches for the address', async () => {
    await createUser(guard.sql, { email: 'ida@corp.example', password: TEST_PASSWORD, name: 'Ida' })
    const person = await upstreamPerson('ida@corp.example')
    const noLinking = await provider({ name: 'No linking', jit_provisioning: true })
    const refused = await federate(await openConsoleSignIn(), noLinking.id, person)
    expect('page' in refused && refused.page).toContain('is not linked to No linking')
    // Guard as the upstream sends no email_verified: the address is not vouched for.
    const linking = await provider({ name: 'Linking', jit_provisioning: true, link_by_email: true })
    const unverified = await federate(await openConsoleSignIn(), linking.id, person)
    expect(unverified).toMatchObject({ status: 403 })
    expect('page' in unverified && unverified.page).toContain('does not say the address is verified')
    const { rows } = await guard.sql.query('SELECT 1 FROM identity.federated_identities WHERE email = $1', [
      person.email,
    ])
    expect(rows).toHaveLength(0)
  })

  it("provisions a person into the provider's organization with the role its claim maps to", async () => {
    const org = await guard.sql.query<{ id: string }>("SELECT id FROM identity.organizations WHERE slug = 'acme'")
    const acme = org.rows[0]?.id ?? ''
    const mapped = await provider(
      {
        name: 'Acme SSO',
        jit_provisioning: true,
        allowed_domains: ['acme.example'],
        role_claim: 'role',
        role_map: { admin: 'admin', user: 'viewer' },
      },
      acme,
    )
    const viewer = await upstreamPerson('jan@acme.example', 'user')
    const admin = await upstreamPerson('kim@acme.example', 'admin')
    for (const [person, role] of [
      [viewer, 'viewer'],
      [admin, 'admin'],
    ] as const) {
      const journey = await openConsoleSignIn()
      const outcome = await federate(journey, mapped.id, person)
      if (!('leftTo' in outcome)) throw new Error(`no code: ${outcome.status} ${outcome.page}`)
      const { claims } = await redeem(journey, outcome.leftTo)
      expect(claims.organizations).toEqual([expect.objectContaining({ slug: 'acme', role })])
    }
  })

  it('refuses the password of a member whose organization requires its provider, pointing to the button', async () => {
    const { rows } = await guard.sql.query<{ id: string }>(
      `INSERT INTO identity.organizations (id, slug, name) VALUES ('org_req', 'req', 'Req') RETURNING id`,
    )
    const required = await provider({ name: 'Req SSO', required: true, allowed_domains: ['req.example'] }, rows[0]?.id)
    const member = await createUser(guard.sql, { email: 'lea@req.example', password: TEST_PASSWORD, name: 'Lea' })
    await addMember(guard.sql, { organizationSlug: 'req', userId: member.id, role: 'member' })
    const journey = await openConsoleSignIn()
    const refused = await journey.browser.request(`${guard.url}/sign-in`, {
      form: {
        csrf: hiddenField(journey.signInPage, 'csrf'),
        return_to: journey.returnTo,
        email: member.email,
        password: TEST_PASSWORD,
      },
    })
    expect(refused.status).toBe(403)
    const page = await refused.text()
    expect(page).toContain('Your organization requires signing in with Req SSO')
    expect(page).toContain(`name="provider" value="${required.id}"`)
    expect(refused.headers.getSetCookie().some((line) => line.startsWith('guard_session='))).toBe(false)

    // The organization's provider is found from the typed e-mail's domain.
    const byDomain = await journey.browser.request(
      `${guard.url}/sign-in/federation?${new URLSearchParams({ email: member.email, return_to: journey.returnTo })}`,
    )
    expect(byDomain.status).toBe(303)
    expect(byDomain.headers.get('location')).toContain(`${upstream.url}/api/oauth/authorize?`)
  })

  it('does not reach a stored loopback issuer once private targets are no longer allowed', async () => {
    const stored = await provider({ name: 'Loopback' })
    const journey = await openConsoleSignIn()
    guard.ctx.allowPrivateTargets = false
    try {
      const refused = await journey.browser.request(
        `${guard.url}/sign-in/federation?${new URLSearchParams({ provider: stored.id, return_to: journey.returnTo })}`,
      )
      expect(refused.status).toBe(502)
      expect(await refused.text()).toContain('Loopback cannot be reached right now')
    } finally {
      guard.ctx.allowPrivateTargets = true
    }
  })

  it('refuses a callback without the state cookie it started with', async () => {
    const response = await new HttpBrowser().request(`${guard.url}/sign-in/federation/callback?code=x&state=y`)
    expect(response.status).toBe(400)
  })
})

describe('password sign-in without federation', () => {
  it('still gives amr pwd', async () => {
    const journey = await openConsoleSignIn()
    const signedIn = await journey.browser.request(`${guard.url}/sign-in`, {
      form: {
        csrf: hiddenField(journey.signInPage, 'csrf'),
        return_to: journey.returnTo,
        email: guard.user.email,
        password: TEST_PASSWORD,
      },
    })
    const callback = await journey.browser.request(new URL(signedIn.headers.get('location') ?? '', guard.url).href)
    const { claims } = await redeem(journey, new URL(callback.headers.get('location') ?? ''))
    expect(claims.amr).toEqual(['pwd'])
  })
})
