import type { AccessTokenClaims } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { hasPermission } from '../access/permissions.ts'
import { callerFromToken } from './caller-from-token.ts'
import { intersectPermissions } from './permissions.ts'

const claims = (
  organizations: AccessTokenClaims['organizations'],
  scope = 'openid organizations read write',
): AccessTokenClaims => ({
  iss: 'http://identity',
  sub: 'user-1',
  aud: ['urn:guard:monitoring-api'],
  client_id: 'app',
  scope,
  jti: 'jti',
  iat: 0,
  exp: 0,
  ...(organizations ? { organizations } : {}),
})

const two = [
  { id: 'org-a', role: 'viewer' },
  { id: 'org-b', role: 'owner' },
]
const ownerWith = (scope: string) => callerFromToken(claims([{ id: 'org-a', role: 'owner' }], scope), undefined)
const may = (scope: string, permission: string) => hasPermission(ownerWith(scope).permissions, permission)

describe('caller from a user access token', () => {
  it('is scoped to the first organization of the claim, with that membership role’s permissions', () => {
    expect(callerFromToken(claims(two, 'openid organizations read'), undefined)).toEqual({
      principal: { kind: 'user', id: 'user-1' },
      organizationId: 'org-a',
      organizationIds: ['org-a', 'org-b'],
      permissions: ['*:read'],
      role: 'viewer',
    })
  })

  it('is scoped to the organization the request names when the user belongs to it', () => {
    expect(callerFromToken(claims(two), 'org-b')).toMatchObject({ organizationId: 'org-b', role: 'owner' })
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

describe('a user token does what its scopes grant, within the role', () => {
  it('read reads and writes nothing, whatever the role', () => {
    expect(ownerWith('openid read').permissions).toEqual(['*:read'])
    expect(may('openid read', 'domains:write')).toBe(false)
    expect(may('openid read', 'api-keys:write')).toBe(false)
  })

  it('organizations alone names the organizations and grants nothing in them', () => {
    expect(ownerWith('openid organizations').permissions).toEqual([])
  })

  it('write writes monitors but never mints API keys: that takes the first-party scope api-keys:write', () => {
    expect(may('openid read write', 'domains:write')).toBe(true)
    expect(may('openid read write', 'status-pages:write')).toBe(true)
    expect(may('openid read write', 'api-keys:write')).toBe(false)
    expect(may('openid read write api-keys:write', 'api-keys:write')).toBe(true)
    expect(may('openid api-keys:write', 'domains:write')).toBe(false)
  })

  it('the role still bounds the scopes: a viewer’s write token changes only their own chat, a member’s mints no key', () => {
    const viewer = callerFromToken(claims([{ id: 'org-a', role: 'viewer' }], 'read write api-keys:write'), undefined)
    expect(viewer.permissions.filter((permission) => permission.endsWith(':write'))).toEqual(['chat:write'])
    const member = callerFromToken(claims([{ id: 'org-a', role: 'member' }], 'read write api-keys:write'), undefined)
    expect(hasPermission(member.permissions, 'domains:write')).toBe(true)
    expect(hasPermission(member.permissions, 'api-keys:write')).toBe(false)
    expect(hasPermission(member.permissions, 'status-pages:write')).toBe(false)
  })
})

describe('intersecting permissions', () => {
  it('keeps what both sides allow, wildcards included', () => {
    expect(intersectPermissions(['*:*'], ['domains:read'])).toEqual(['domains:read'])
    expect(intersectPermissions(['*'], ['*:read'])).toEqual(['*:read'])
    expect(intersectPermissions(['*:read', 'domains:write'], ['domains:*'])).toEqual(['domains:read', 'domains:write'])
    expect(intersectPermissions(['domains:read'], ['services:read'])).toEqual([])
  })
})
