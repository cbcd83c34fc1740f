import { openMigratedTestRelationalStore, type RelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDENTITY_MIGRATIONS } from '../../server.ts'
import { createOrganization } from '../organizations/create.ts'
import { createUser } from '../users/create.ts'
import { createFederationProvider } from './create-provider.ts'
import { resolveFederatedUser } from './resolve-user.ts'

const KEY = Buffer.alloc(32, 7)
let sql: RelationalStore

beforeAll(async () => {
  sql = await openMigratedTestRelationalStore([IDENTITY_MIGRATIONS])
})
afterAll(() => sql?.close())

const provider = (input: Record<string, unknown>, organizationId: string | null = null) =>
  createFederationProvider({
    sql,
    secretKey: KEY,
    allowPrivate: true,
    organizationId,
    input: { name: 'Corp', issuer: 'http://127.0.0.1:1', client_id: 'c', client_secret: 's', ...input },
  })

describe('which Guard user an upstream person is', () => {
  it('links the account of the same e-mail when allowed and the upstream says it is verified, then by subject', async () => {
    const user = await createUser(sql, { email: 'Nia@corp.example', password: 'long enough password', name: 'Nia' })
    const linking = await provider({ link_by_email: true })
    expect(
      await resolveFederatedUser({ sql, provider: linking, claims: { sub: 'u-1', email: 'nia@corp.example' } }),
    ).toEqual({ refused: 'unverified_email' })
    expect(
      await resolveFederatedUser({
        sql,
        provider: linking,
        claims: { sub: 'u-1', email: 'nia@corp.example', email_verified: true },
      }),
    ).toEqual({ userId: user.id, how: 'linked_by_email' })
    // Linked for good: a changed address upstream still reaches the same user.
    expect(
      await resolveFederatedUser({ sql, provider: linking, claims: { sub: 'u-1', email: 'nia.new@corp.example' } }),
    ).toEqual({ userId: user.id, how: 'linked' })
  })

  it('maps the first known value of an array claim to the membership role, else the default', async () => {
    const organization = await createOrganization(sql, { name: 'Roles', slug: 'roles' })
    const mapped = await provider(
      {
        jit_provisioning: true,
        role_claim: 'groups',
        role_map: { 'guard-owners': 'owner', 'guard-admins': 'admin' },
        default_role: 'viewer',
      },
      organization.id,
    )
    const roleOf = async (sub: string, groups: unknown) => {
      const outcome = await resolveFederatedUser({
        sql,
        provider: mapped,
        claims: { sub, email: `${sub}@roles.example`, groups },
      })
      if (!('userId' in outcome)) throw new Error(outcome.refused)
      const { rows } = await sql.query<{ role: string }>(
        'SELECT role FROM identity.memberships WHERE user_id = $1 AND organization_id = $2',
        [outcome.userId, organization.id],
      )
      return rows[0]?.role
    }
    expect(await roleOf('a', ['staff', 'guard-admins', 'guard-owners'])).toBe('admin')
    expect(await roleOf('b', 'guard-owners')).toBe('owner')
    expect(await roleOf('c', ['staff'])).toBe('viewer')
    expect(await roleOf('d', { toString: 'guard-owners' })).toBe('viewer')
  })
})
