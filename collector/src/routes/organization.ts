import type { GuardFastify } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import type { IdentityUser } from '../services/identity/as-user.ts'
import {
  accountSessionView,
  changeMemberRole,
  changePassword,
  endAccountSession,
  getOrganizationSettings,
  invitationInput,
  invitationView,
  inviteMember,
  issuedInvitationView,
  listAccountSessions,
  listInvitations,
  listMembers,
  memberView,
  organizationView,
  passwordInput,
  removeMember,
  renameInput,
  renameOrganization,
  revokeInvitation,
  roleInput,
} from '../services/identity/organization.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'

/**
 * Signed-in users only: these routes act at identity with the user's own access token (an API key
 * has none), and identity decides what the user may do there.
 */
const userOnly = { access: { user: true as const } }
const TAGS = ['organization']
const responses = { ...errorResponses, 409: errorSchema, 502: errorSchema }
const memberParams = z.object({ userId: z.string().min(1).max(64) })

/** The request's own bearer token: the console's session token (the BFF attached it) or a user's JWT. */
function identityUser(request: FastifyRequest): IdentityUser {
  const accessToken = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? ''
  return { accessToken, ip: request.ip, userAgent: request.headers['user-agent'] }
}

/**
 * The organization settings and the caller's account, for the console: thin adapters over
 * identity's user-facing API, scoped to the request's organization (`X-Organization-Id`).
 */
export function organizationRoutes(app: GuardFastify, ctx: CollectorContext): void {
  const as = (request: FastifyRequest) => ({ ctx, caller: callerOf(request), user: identityUser(request) })

  app.get(
    '/api/organization',
    {
      config: userOnly,
      schema: {
        summary: 'The current organization, with my role in it',
        description: 'As identity has it now. The plan and its usage: GET /api/usage.',
        tags: TAGS,
        response: { 200: envelope(organizationView), ...responses },
      },
    },
    async (request) => ok(await getOrganizationSettings({ ...as(request), input: undefined })),
  )
  app.patch(
    '/api/organization',
    {
      config: userOnly,
      schema: {
        summary: 'Rename the current organization (owners)',
        tags: TAGS,
        body: renameInput,
        response: { 200: envelope(organizationView), ...responses },
      },
    },
    async (request) => ok(await renameOrganization({ ...as(request), input: request.body })),
  )
  app.get(
    '/api/organization/members',
    {
      config: userOnly,
      schema: {
        summary: 'The members of the current organization and their roles',
        tags: TAGS,
        response: { 200: envelope(z.array(memberView)), ...responses },
      },
    },
    async (request) => ok(await listMembers({ ...as(request), input: undefined })),
  )
  app.patch(
    '/api/organization/members/:userId',
    {
      config: userOnly,
      schema: {
        summary: "Change a member's role",
        description:
          'Owners, and admins for members below owner (an admin makes nobody an owner). The organization keeps at least one owner (409).',
        tags: TAGS,
        params: memberParams,
        body: roleInput,
        response: { 200: envelope(memberView), ...responses },
      },
    },
    async (request) =>
      ok(await changeMemberRole({ ...as(request), input: { userId: request.params.userId, role: request.body.role } })),
  )
  app.delete(
    '/api/organization/members/:userId',
    {
      config: userOnly,
      schema: {
        summary: 'Remove a member from the current organization',
        description: 'Owners, and admins for members below owner. The organization keeps at least one owner (409).',
        tags: TAGS,
        params: memberParams,
        response: { 200: deleted, ...responses },
      },
    },
    async (request) => {
      const removed = await removeMember({ ...as(request), input: { userId: request.params.userId } })
      return ok({ id: removed.userId, deleted: true as const })
    },
  )
  app.get(
    '/api/organization/invitations',
    {
      config: userOnly,
      schema: {
        summary: "The current organization's invitations, newest first (owners and admins)",
        tags: TAGS,
        response: { 200: envelope(z.array(invitationView)), ...responses },
      },
    },
    async (request) => ok(await listInvitations({ ...as(request), input: undefined })),
  )
  app.post(
    '/api/organization/invitations',
    {
      config: userOnly,
      schema: {
        summary: 'Invite an e-mail address into the current organization (owners and admins)',
        description:
          'Only an owner invites an owner. The single-use link lasts 7 days; identity e-mails it when it has a mail server, otherwise `link` carries it, in this answer only.',
        tags: TAGS,
        body: invitationInput,
        response: { 201: envelope(issuedInvitationView), ...responses },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await inviteMember({ ...as(request), input: request.body }))),
  )
  app.delete(
    '/api/organization/invitations/:id',
    {
      config: userOnly,
      schema: {
        summary: 'Revoke a pending invitation',
        tags: TAGS,
        params: idParams,
        response: { 200: deleted, ...responses },
      },
    },
    async (request) => {
      const revoked = await revokeInvitation({ ...as(request), input: { id: request.params.id } })
      return ok({ id: revoked.id, deleted: true as const })
    },
  )
  app.get(
    '/api/account/sessions',
    {
      config: userOnly,
      schema: {
        summary: 'My browser sessions at identity (where I signed in)',
        tags: TAGS,
        response: { 200: envelope(z.array(accountSessionView)), ...responses },
      },
    },
    async (request) => ok(await listAccountSessions({ ...as(request), input: undefined })),
  )
  app.delete(
    '/api/account/sessions/:id',
    {
      config: userOnly,
      schema: {
        summary: 'Sign one of my browser sessions out',
        tags: TAGS,
        params: idParams,
        response: { 200: deleted, ...responses },
      },
    },
    async (request) => {
      const ended = await endAccountSession({ ...as(request), input: { id: request.params.id } })
      return ok({ id: ended.id, deleted: true as const })
    },
  )
  app.post(
    '/api/account/password',
    {
      config: userOnly,
      schema: {
        summary: 'Change my password',
        description:
          'Needs the current password; a wrong one counts as a failed sign-in (429 while locked). Every browser session and every other sign-in of the user ends; this one stays.',
        tags: TAGS,
        body: passwordInput,
        response: { 200: envelope(z.object({ changed: z.literal(true) })), ...responses },
      },
    },
    async (request) => ok(await changePassword({ ...as(request), input: request.body })),
  )
}
