import { randomBytes } from 'node:crypto'
import { openTestRelationalStore, type RelationalStore } from '@guard/shared'
import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateIdentity } from '../../../server.ts'
import { createUser } from '../../users/create.ts'
import { startTotpEnrolment } from './start-enrolment.ts'
import { verifyTotp } from './verify.ts'

const key = randomBytes(32)
/** An injected clock: the start of a 30-second step, far from the real time. */
const T = 1_800_000_010_000
let sql: RelationalStore

beforeAll(async () => {
  sql = await openTestRelationalStore()
  await migrateIdentity(sql)
}, 120_000)
afterAll(() => sql?.close())

async function enrolled(email: string) {
  const user = await createUser(sql, { email, password: 'correct horse battery staple', name: '', role: 'user' })
  const { secret, qrSvg, uri } = await startTotpEnrolment(sql, { key, userId: user.id })
  const code = (at: number) => generate({ secret, epoch: Math.floor(at / 1000) })
  expect(await verifyTotp(sql, { key, userId: user.id, code: await code(T), confirming: true, now: T })).toBe(true)
  return { userId: user.id, secret, qrSvg, uri, code }
}

describe('TOTP', () => {
  it('enrolment renders the otpauth URI as an SVG QR code and keeps the secret encrypted', async () => {
    const { userId, secret, qrSvg, uri } = await enrolled('qr@example.org')
    expect(qrSvg).toMatch(/^<svg[^>]*viewBox/)
    expect(uri).toMatch(/^otpauth:\/\/totp\/Guard:qr%40example.org\?.*secret=/)
    const { rows } = await sql.query<{ secret_encrypted: string }>(
      'SELECT secret_encrypted FROM identity.totp_secrets WHERE user_id = $1',
      [userId],
    )
    expect(rows[0]?.secret_encrypted).not.toContain(secret)
  })

  it('accepts a code one step early or late, not two', async () => {
    const { userId, code } = await enrolled('drift@example.org')
    const at = T + 10 * 30_000
    expect(await verifyTotp(sql, { key, userId, code: await code(at - 60_000), now: at })).toBe(false)
    expect(await verifyTotp(sql, { key, userId, code: await code(at + 60_000), now: at })).toBe(false)
    expect(await verifyTotp(sql, { key, userId, code: await code(at - 30_000), now: at })).toBe(true)
    expect(await verifyTotp(sql, { key, userId, code: await code(at + 30_000), now: at })).toBe(true)
  })

  it('refuses a used code the second time, and any code of an earlier step', async () => {
    const { userId, code } = await enrolled('replay@example.org')
    const at = T + 20 * 30_000
    const used = await code(at)
    expect(await verifyTotp(sql, { key, userId, code: used, now: at })).toBe(true)
    expect(await verifyTotp(sql, { key, userId, code: used, now: at + 5_000 })).toBe(false)
    expect(await verifyTotp(sql, { key, userId, code: await code(at - 30_000), now: at })).toBe(false)
    expect(await verifyTotp(sql, { key, userId, code: await code(at + 30_000), now: at + 30_000 })).toBe(true)
  })

  it('an unconfirmed secret signs nobody in', async () => {
    const user = await createUser(sql, {
      email: 'half@example.org',
      password: 'correct horse battery staple',
      name: '',
      role: 'user',
    })
    const { secret } = await startTotpEnrolment(sql, { key, userId: user.id })
    const code = await generate({ secret, epoch: Math.floor(T / 1000) })
    expect(await verifyTotp(sql, { key, userId: user.id, code, now: T })).toBe(false)
  })
})
