import { randomBytes } from 'node:crypto'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { createConsoleAuth, SESSION_COOKIE } from '../collector/src/console/bff.ts'
import { CONSOLE_SCOPE } from '../collector/src/console/identity-client.ts'
import { createSession, findSession } from '../collector/src/console/sessions.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { signInThroughPages, startTestIdentity, type TestIdentity } from '../identity/src/oauth/testing.ts'

const KEY = randomBytes(32)
const CONSOLE = 'http://127.0.0.1:9'

/**
 * Two collector replicas over one database, each with its own console BFF, in front of a real
 * identity that rotates refresh tokens and revokes a whole family when a rotated one is reused.
 */
describe('the console session across collector replicas', () => {
  let identity: TestIdentity
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let replicas: Array<Awaited<ReturnType<typeof buildCollectorApp>>>
  let client: Awaited<ReturnType<TestIdentity['client']>>

  beforeAll(async () => {
    identity = await startTestIdentity()
    harness = await collectorForTest({ GUARD_IDENTITY_URL: identity.url })
    client = await identity.client({ redirectUris: [`${CONSOLE}/auth/callback`], firstParty: true })
    const config = await oidc.discovery(
      new URL(identity.url),
      client.client_id,
      undefined,
      oidc.ClientSecretPost(client.client_secret ?? ''),
      { execute: [oidc.allowInsecureRequests] },
    )
    const resolved = {
      config,
      clientId: client.client_id,
      callbackUrl: `${CONSOLE}/auth/callback`,
      signedOutUrl: `${CONSOLE}/auth/signed-out`,
    }
    replicas = await Promise.all(
      [0, 1].map(() =>
        buildCollectorApp(harness.ctx, {
          console: createConsoleAuth({
            sql: harness.ctx.sql,
            log: harness.ctx.log,
            sealKey: KEY,
            oidc: async () => resolved,
            publicUrl: () => CONSOLE,
            sessionSeconds: 3600,
          }),
        }),
      ),
    )
  })
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close()
    await harness?.close()
    await identity?.close()
  })

  it('refreshes an expiring access token once when both replicas need it at the same moment', async () => {
    const { tokens } = await signInThroughPages(identity, client, { scope: CONSOLE_SCOPE })
    const { raw, session } = await createSession(harness.ctx.sql, KEY, {
      userId: identity.user.id,
      tokens: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
      // Inside the refresh margin: the next call through either replica refreshes first.
      accessExpiresAt: new Date(Date.now() + 5_000),
      lifetimeSeconds: 3600,
    })
    const cookie = `${SESSION_COOKIE}=${raw}`
    const calls = await Promise.all(
      replicas.flatMap((replica) =>
        [0, 1].map(() => replica.inject({ method: 'GET', url: '/api/domains', headers: { cookie } })),
      ),
    )
    expect(calls.map((call) => call.statusCode)).toEqual([200, 200, 200, 200])
    const stored = await findSession(harness.ctx.sql, KEY, raw)
    expect(stored?.version).toBe(session.version + 1)
    expect(stored?.tokens.refreshToken).not.toBe(tokens.refresh_token)
    expect(stored!.accessExpiresAt.getTime()).toBeGreaterThan(Date.now() + 60_000)

    // The family is alive: the rotated refresh token still refreshes at identity.
    const rotated = await fetch(`${identity.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: stored!.tokens.refreshToken!,
        client_id: client.client_id,
        client_secret: client.client_secret ?? '',
      }),
    })
    expect(rotated.status).toBe(200)
  })
})
