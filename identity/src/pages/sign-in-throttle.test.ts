import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HttpBrowser,
  hiddenField,
  openSignInPage,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from '../oauth/testing.ts'
import type { CreatedClient } from '../services/clients/create.ts'
import { defaultThrottlePolicy } from '../services/sign-in/throttle.ts'
import { createUser } from '../services/users/create.ts'
import { LOCKED_MESSAGE } from './sign-in.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
const DELAY_MS = 300
// Long enough that a loaded machine cannot outlast it mid-test; the test ends the locks itself.
const LOCK_SECONDS = 600
let identity: TestIdentity
let client: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  identity.ctx.throttle = defaultThrottlePolicy({ delayMs: DELAY_MS, lockSeconds: LOCK_SECONDS })
  client = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  await createUser(identity.sql, { email: 'bob@example.org', password: TEST_PASSWORD, name: 'Bob' })
})
afterAll(() => identity?.close())

/** A fresh browser on the sign-in form, ready to submit it. */
async function signInForm() {
  const browser = new HttpBrowser()
  const { page } = await openSignInPage(identity, browser, client)
  return { browser, page }
}

/** One sign-in form submission from a fresh browser; how it was answered and how long it took. */
async function attempt(email: string, password: string, form?: Awaited<ReturnType<typeof signInForm>>) {
  const { browser, page } = form ?? (await signInForm())
  const started = performance.now()
  const response = await browser.request(`${identity.url}/sign-in`, {
    form: { csrf: hiddenField(page, 'csrf'), return_to: hiddenField(page, 'return_to'), email, password },
  })
  const body = await response.text()
  return {
    status: response.status,
    ms: performance.now() - started,
    message: body.match(/role="alert">([^<]*)</)?.[1],
    retryAfter: response.headers.get('retry-after'),
  }
}

describe('failed sign-ins are throttled per account and per address', () => {
  it('20 wrong passwords slow down then lock; the right one is refused alike during the lock and works after it', async () => {
    const email = identity.user.email
    const answers = []
    for (let i = 0; i < 20; i++) answers.push(await attempt(email, `wrong password ${i}`))

    // 1-5 are free; 6-9 are held for 300, 600, 1200, 2400 ms; the 10th locks the account.
    expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(401))
    for (const [index, delay] of [
      [5, DELAY_MS],
      [6, DELAY_MS * 2],
      [7, DELAY_MS * 4],
      [8, DELAY_MS * 8],
    ] as const) {
      expect(answers[index]!.ms, `attempt ${index + 1}`).toBeGreaterThanOrEqual(delay - 20)
    }
    expect(answers.slice(10).map((answer) => answer.status)).toEqual(Array(10).fill(429))
    expect(new Set(answers.slice(10).map((answer) => answer.message))).toEqual(new Set([LOCKED_MESSAGE]))
    expect(Number(answers[10]!.retryAfter)).toBeGreaterThan(0)

    const right = await attempt(email, TEST_PASSWORD)
    expect(right).toMatchObject({ status: 429, message: LOCKED_MESSAGE })

    // The 20 attempts from this address locked it too: another account is refused alike, and so is
    // an account that does not exist (a lock says nothing about existence).
    expect(await attempt('bob@example.org', TEST_PASSWORD)).toMatchObject({ status: 429, message: LOCKED_MESSAGE })
    expect(await attempt('nobody@example.org', 'whatever')).toMatchObject({ status: 429, message: LOCKED_MESSAGE })

    const { rows } = await identity.sql.query<{ action: string }>(
      "SELECT action FROM identity.audit_log WHERE action = 'sign_in.lock'",
    )
    expect(rows.length).toBeGreaterThanOrEqual(2)

    const { rows: locks } = await identity.sql.query<{ key: string; seconds: number }>(
      `SELECT key, extract(epoch FROM locked_until - now())::int AS seconds
         FROM identity.sign_in_throttle WHERE locked_until > now() ORDER BY key`,
    )
    expect(locks.map((lock) => lock.key)).toEqual(['account:ann@example.org', 'ip:127.0.0.1'])
    for (const lock of locks) expect(Number(lock.seconds)).toBeGreaterThan(LOCK_SECONDS - 120)
    // The locks' time passes (moved, not waited for: waiting 10 minutes proves nothing more).
    await identity.sql.query("UPDATE identity.sign_in_throttle SET locked_until = now() - interval '1 second'")
    expect((await attempt(email, TEST_PASSWORD)).status).toBe(303)
    expect((await attempt('bob@example.org', TEST_PASSWORD)).status).toBe(303)
  }, 60_000)

  it('26 wrong passwords sent at once: 10 are checked and the lock refuses the other 16', async () => {
    const email = 'dora@example.org'
    await createUser(identity.sql, { email, password: TEST_PASSWORD, name: 'Dora' })
    // The address may take many more: the account's rule alone decides here.
    const policy = identity.ctx.throttle
    identity.ctx.throttle = { ...policy, ip: { free: 1000, lockAfter: 1000 } }
    try {
      const forms = await Promise.all(Array.from({ length: 26 }, () => signInForm()))
      const answers = await Promise.all(forms.map((form, index) => attempt(email, `parallel guess ${index}`, form)))
      const statuses = answers.map((answer) => answer.status)
      expect(statuses.filter((status) => status === 401)).toHaveLength(10)
      expect(statuses.filter((status) => status === 429)).toHaveLength(16)
      for (const refused of answers.filter((answer) => answer.status === 429)) {
        expect(refused.message).toBe(LOCKED_MESSAGE)
        expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      }
      expect(await attempt(email, TEST_PASSWORD)).toMatchObject({ status: 429, message: LOCKED_MESSAGE })
    } finally {
      identity.ctx.throttle = policy
    }
  }, 60_000)
})
