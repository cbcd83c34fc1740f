import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obtainTokens, startTestIdentity, type TestIdentity } from '../../oauth/testing.ts'
import { pruneExpired } from './prune.ts'

let identity: TestIdentity

beforeAll(async () => {
  identity = await startTestIdentity()
})
afterAll(() => identity?.close())

const count = async (table: string) =>
  Number((await identity.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity.${table}`)).rows[0]?.n)

describe('pruning', () => {
  it('expired tokens, codes, sessions and empty grants are deleted; live ones stay', async () => {
    const client = await identity.client({ firstParty: true })
    await obtainTokens(identity, client)
    const live = await obtainTokens(identity, client)
    const { sql } = identity
    // Age everything but the live family into the past.
    const liveJti = decodeJwt(live.access_token).jti
    await sql.query(`UPDATE identity.access_tokens SET expires_at = now() - interval '1 hour' WHERE jti <> $1`, [
      liveJti,
    ])
    await sql.query(`UPDATE identity.refresh_tokens SET expires_at = now() - interval '1 hour' WHERE grant_id IN
      (SELECT grant_id FROM identity.access_tokens WHERE expires_at < now())`)
    await sql.query(`UPDATE identity.grants SET created_at = now() - interval '2 days'`)
    await sql.query(`UPDATE identity.authorization_codes SET expires_at = now() - interval '2 days'`)
    await sql.query(`UPDATE identity.sessions SET expires_at = now() - interval '1 hour'`)

    await pruneExpired(sql)
    expect(await count('authorization_codes')).toBe(0)
    expect(await count('sessions')).toBe(0)
    expect(await count('access_tokens')).toBe(1)
    expect(await count('refresh_tokens')).toBe(1)
    expect(await count('grants')).toBe(1)
    const userinfo = await fetch(`${identity.url}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${live.access_token}` },
    })
    expect(userinfo.status).toBe(200)
  })
})
