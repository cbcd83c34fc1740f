import { malformedBodies } from '@guard/shared/testing'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestIdentity, type TestIdentity } from '../oauth/testing.ts'
import { ensureAdminToken } from '../services/admin-tokens/ensure.ts'

type Body = Record<string, unknown>

let identity: TestIdentity
let token: string
let userId: string

beforeAll(async () => {
  identity = await startTestIdentity()
  token = (await ensureAdminToken(identity.sql)) ?? ''
  userId = identity.user.id
})
afterAll(() => identity?.close())

const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { minLength: 1 }))
const badEmail = fc.oneof(fc.constantFrom('', 'nobody', '@x', 'a@', 'a b@c.d'), notAString)
const badRole = fc.oneof(fc.constantFrom('', 'root', 'OWNER', 'superuser'), notAString)
const unknownField = fc
  .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue())
  .map(([key, value]) => ({ [`x_${key}`]: value }))

/**
 * A valid body with one field made bad, an unknown field added, a string made malformed Unicode
 * (a Buffer when it is raw bytes), or no object at all.
 */
function invalidBodies(valid: Body, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const replaced = Object.entries(fields).map(([field, bad]) => bad.map((value) => ({ ...valid, [field]: value })))
  return fc.oneof(
    ...replaced,
    unknownField.map((extra) => ({ ...valid, ...extra })),
    malformedBodies(valid),
    fc.oneof(fc.string(), fc.integer(), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.constant(null)),
  )
}

/** Everything the admin API could write, counted, so a refused request is seen to change nothing. */
async function counts() {
  const { rows } = await identity.sql.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM identity.users)::int AS users,
            (SELECT count(*) FROM identity.organizations)::int AS organizations,
            (SELECT count(*) FROM identity.memberships)::int AS memberships,
            (SELECT count(*) FROM identity.clients)::int AS clients,
            (SELECT count(*) FROM identity.invitations)::int AS invitations,
            (SELECT count(*) FROM identity.audit_log)::int AS audit,
            (SELECT string_agg(name || role || coalesce(disabled_at::text, ''), ',') FROM identity.users) AS users_state`,
  )
  return rows[0]
}

const routes: Array<{ method: 'POST' | 'PATCH'; url: () => string; bodies: fc.Arbitrary<unknown> }> = [
  {
    method: 'POST',
    url: () => '/api/v1/admin/users',
    bodies: invalidBodies(
      { email: 'fuzz@example.org', password: 'fuzz-password-long', name: 'Fuzz' },
      {
        email: badEmail,
        password: fc.oneof(fc.string({ maxLength: 11 }), notAString),
        name: fc.oneof(fc.constant(''), notAString),
        role: badRole,
        membershipRole: badRole,
      },
    ),
  },
  {
    method: 'PATCH',
    url: () => `/api/v1/admin/users/${userId}`,
    bodies: invalidBodies(
      { name: 'Renamed' },
      { name: fc.oneof(fc.constant(''), notAString), role: badRole, disabled: fc.oneof(fc.string(), fc.integer()) },
    ),
  },
  {
    method: 'POST',
    url: () => '/api/v1/admin/organizations',
    bodies: invalidBodies(
      { name: 'Fuzz', slug: 'fuzz' },
      { slug: fc.oneof(fc.constantFrom('', 'UPPER', 'spa ce', '-lead', 'x'.repeat(64)), notAString), name: notAString },
    ),
  },
  {
    method: 'PATCH',
    url: () => '/api/v1/admin/organizations/acme',
    bodies: invalidBodies({ name: 'Acme' }, { name: fc.oneof(fc.constant('  '), notAString) }),
  },
  {
    method: 'POST',
    url: () => '/api/v1/admin/organizations/acme/members',
    bodies: invalidBodies({ email: 'ann@example.org', role: 'viewer' }, { email: badEmail, role: badRole }),
  },
  {
    method: 'PATCH',
    url: () => `/api/v1/admin/organizations/acme/members/${userId}`,
    bodies: invalidBodies({ role: 'owner' }, { role: badRole }),
  },
  {
    method: 'POST',
    url: () => '/api/v1/admin/clients',
    bodies: invalidBodies(
      { name: 'Fuzz', redirect_uris: ['https://fuzz.example/cb'] },
      {
        redirect_uris: fc.oneof(
          fc.constant([]),
          fc.constantFrom(['http://fuzz.example/cb'], ['https://x.example/#frag'], ['not a url'], [1]),
          notAString,
        ),
        post_logout_redirect_uris: fc.constantFrom(['javascript:alert(1)'], ['http://evil.example/']),
        allowed_scopes: fc.constantFrom(['root'], ['openid', 'everything']),
        public: fc.oneof(fc.string(), fc.integer()),
      },
    ),
  },
  {
    method: 'POST',
    url: () => '/api/v1/admin/organizations/acme/invitations',
    bodies: invalidBodies({ email: 'guest@example.org', role: 'member' }, { email: badEmail, role: badRole }),
  },
]

describe('bad input on every admin write route: 4xx with code, detail and hint, nothing changed', () => {
  for (const route of routes) {
    it(`${route.method} ${route.url().replace(userId, '{id}')}`, async () => {
      const before = await counts()
      await fc.assert(
        fc.asyncProperty(route.bodies, async (body) => {
          const payload = Buffer.isBuffer(body) ? body : JSON.stringify(body)
          const response = await fetch(`${identity.url}${route.url()}`, {
            method: route.method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: payload,
          })
          const problem = (await response.json()) as Record<string, unknown>
          expect(response.status, payload.toString()).toBeGreaterThanOrEqual(400)
          expect(response.status, payload.toString()).toBeLessThan(500)
          expect(problem).toMatchObject({ code: expect.any(String), detail: expect.any(String) })
          if (response.status === 400) expect(problem.hint).toEqual(expect.any(String))
        }),
        { numRuns: 40 },
      )
      expect(await counts()).toEqual(before)
    })
  }
})
