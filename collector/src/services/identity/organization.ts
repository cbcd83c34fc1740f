import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { callIdentityAsUser, type IdentityUser } from './as-user.ts'

/**
 * The caller's organization, its members and invitations, and the caller's own account, as identity
 * keeps them: each function is one call to identity with the user's own token, scoped to the
 * organization the request is scoped to. Identity applies its rules (who may change what, the last
 * owner stays); the collector adds none of its own, so both stay one set of rules.
 */

export const MEMBERSHIP_ROLES = ['owner', 'admin', 'member', 'viewer'] as const
const role = z.enum(MEMBERSHIP_ROLES)

export const organizationView = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  createdAt: z.string(),
  members: z.int(),
  plan: z.string().nullable().describe('the catalog plan id; null: no plan, nothing is limited'),
  myRole: role.nullable().describe("the caller's role in it now, as identity has it"),
})

export const memberView = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role,
  createdAt: z.string().describe('when they joined'),
})

export const invitationView = z.object({
  id: z.string(),
  email: z.string(),
  role,
  invitedBy: z.string().describe('the inviting user id'),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
})

export const issuedInvitationView = z.object({
  invitation: invitationView,
  link: z.string().optional().describe('only when identity e-mails no invitations: shown this once'),
  emailed: z.boolean(),
})

export const accountSessionView = z.object({
  id: z.string(),
  createdAt: z.string(),
  authTime: z.string().describe('when the password was entered'),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
})

export const renameInput = z.strictObject({ name: z.string().trim().min(1).max(200) })
export const roleInput = z.strictObject({ role })
export const invitationInput = z.strictObject({ email: z.email().max(320), role: role.default('member') })
export const passwordInput = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(12, 'must be at least 12 characters').max(1024),
})

interface Call<I = undefined> {
  ctx: Pick<CollectorContext, 'env'>
  caller: Caller
  user: IdentityUser
  input: I
}

const org = (caller: Caller) => `/api/v1/organizations/${encodeURIComponent(caller.organizationId)}`
const segment = encodeURIComponent

export const getOrganizationSettings = ({ ctx, caller, user }: Call) =>
  callIdentityAsUser(ctx, user, { method: 'GET', path: org(caller), schema: organizationView })

export const renameOrganization = ({ ctx, caller, user, input }: Call<z.input<typeof renameInput>>) =>
  callIdentityAsUser(ctx, user, {
    method: 'PATCH',
    path: org(caller),
    body: renameInput.parse(input),
    schema: organizationView,
  })

export const listMembers = async ({ ctx, caller, user }: Call) =>
  (
    await callIdentityAsUser(ctx, user, {
      method: 'GET',
      path: `${org(caller)}/members`,
      schema: z.object({ members: z.array(memberView) }),
    })
  ).members

export const changeMemberRole = ({ ctx, caller, user, input }: Call<{ userId: string; role: string }>) =>
  callIdentityAsUser(ctx, user, {
    method: 'PATCH',
    path: `${org(caller)}/members/${segment(input.userId)}`,
    body: roleInput.parse({ role: input.role }),
    schema: memberView,
  })

export const removeMember = ({ ctx, caller, user, input }: Call<{ userId: string }>) =>
  callIdentityAsUser(ctx, user, {
    method: 'DELETE',
    path: `${org(caller)}/members/${segment(input.userId)}`,
    schema: memberView,
  })

export const listInvitations = async ({ ctx, caller, user }: Call) =>
  (
    await callIdentityAsUser(ctx, user, {
      method: 'GET',
      path: `${org(caller)}/invitations`,
      schema: z.object({ invitations: z.array(invitationView) }),
    })
  ).invitations

export const inviteMember = ({ ctx, caller, user, input }: Call<z.input<typeof invitationInput>>) =>
  callIdentityAsUser(ctx, user, {
    method: 'POST',
    path: `${org(caller)}/invitations`,
    body: invitationInput.parse(input),
    schema: issuedInvitationView,
  })

export const revokeInvitation = ({ ctx, caller, user, input }: Call<{ id: string }>) =>
  callIdentityAsUser(ctx, user, {
    method: 'DELETE',
    path: `${org(caller)}/invitations/${segment(input.id)}`,
    schema: invitationView,
  })

export const listAccountSessions = async ({ ctx, user }: Call) =>
  (
    await callIdentityAsUser(ctx, user, {
      method: 'GET',
      path: '/api/v1/account/sessions',
      schema: z.object({ sessions: z.array(accountSessionView) }),
    })
  ).sessions

export const endAccountSession = ({ ctx, user, input }: Call<{ id: string }>) =>
  callIdentityAsUser(ctx, user, {
    method: 'DELETE',
    path: `/api/v1/account/sessions/${segment(input.id)}`,
    schema: z.object({ id: z.string() }),
  })

export const changePassword = ({ ctx, user, input }: Call<z.input<typeof passwordInput>>) =>
  callIdentityAsUser(ctx, user, {
    method: 'POST',
    path: '/api/v1/account/password',
    body: passwordInput.parse(input),
    schema: z.object({ changed: z.literal(true) }),
  })
