import type { AccessTokenClaims } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { callerFromToken } from './caller-from-token.ts'

const claims = (organizations: AccessTokenClaims['organizations']): AccessTokenClaims => ({
  iss: 'http://identity',
  sub: 'user-1',
  aud: ['urn:guard:monitoring-api'],
  client_id: 'app',
  scope: 'openid organizations',
  jti: 'jti',
  iat: 0,
  exp: 0,
  ...(organizations ? { organizations } : {}),
})

const two = [
  { id: 'org-a', role: 'viewer' },
  { id: 'org-b', role: 'owner' },
]

describe('caller from a user access token', () => {
  it('is scoped to the first organization of the claim, with that membership role’s permissions', () => {
    expect(callerFromToken(claims(two), undefined)).toEqual({
      principal: { kind: 'user', id: 'user-1' },
      organizationId: 'org-a',
      organizationIds: ['org-a', 'org-b'],
      permissions: ['*:read'],
    })
  })

  it('is scoped to the organization the request names when the user belongs to it', () => {
    expect(callerFromToken(claims(two), 'org-b')).toMatchObject({ organizationId: 'org-b', permissions: ['*:*'] })
  })

  it('naming an organization the user is not in is FORBIDDEN', () => {
    expect(() => callerFromToken(claims(two), 'org-c')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }))
  })

  it('a token without the organizations claim is FORBIDDEN', () => {
    expect(() => callerFromToken(claims(undefined), undefined)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }))
  })

  it('an unknown membership role grants no permissions', () => {
    expect(callerFromToken(claims([{ id: 'org-a', role: 'auditor' }]), undefined).permissions).toEqual([])
  })
})
