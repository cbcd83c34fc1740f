import {
  GuardError,
  type GuardFastify,
  type Logger,
  memberRole,
  organizationPlan,
  type Sql,
  verifyServiceToken,
} from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ensureFirstPartyClient } from '../services/clients/ensure-first-party.ts'
import { getCurrentMemberRole } from '../services/memberships/current-role.ts'
import { getOrganizationPlan } from '../services/organizations/get-plan.ts'
import { problemResponses } from './schemas.ts'

/** What the service-to-service routes work with. */
export interface InternalOptions {
  sql: Sql
  /** GUARD_SECRET_KEY (or the generated one): callers prove they share it with a service token. */
  secretKey: string
}

/**
 * Routes other Guard processes call with a service token (see signServiceToken), never users:
 * the collector reading an organization's plan to enforce its limits and a user's current role to
 * bound their API keys, and registering the web console's sign-in client.
 */
export function internalRoutes(app: GuardFastify, options: InternalOptions, log: Logger): void {
  const serviceOnly = async (request: FastifyRequest) => {
    const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
    if (!token) throw new GuardError('UNAUTHORIZED', 'A service token is required')
    await verifyServiceToken(options.secretKey, token)
  }
  app.get(
    '/api/v1/internal/organizations/:id/plan',
    {
      onRequest: serviceOnly,
      schema: {
        summary: "An organization's plan and its limits",
        description:
          "The catalog plan the organization is on with that plan's limits, or `plan: null` (no limits). The collector asks this to enforce plan limits and caches the answer for GUARD_PLAN_CACHE_SECONDS. 409 when the organization's plan is no longer in the catalog.",
        tags: ['internal'],
        security: [{ serviceToken: [] }],
        params: z.object({ id: z.string().min(1).max(128) }),
        response: { 200: organizationPlan, ...problemResponses(400, 401, 404, 409, 500) },
      },
    },
    async (request) => getOrganizationPlan(options.sql, log, request.params.id),
  )
  app.get(
    '/api/v1/internal/organizations/:id/members/:userId',
    {
      onRequest: serviceOnly,
      schema: {
        summary: "A user's current role in an organization",
        description:
          "The membership role now, or `role: null` when the user is not a member, is disabled or no longer exists. The collector asks this when it verifies an API key that belongs to a user, so the key acts with at most its creator's current rights.",
        tags: ['internal'],
        security: [{ serviceToken: [] }],
        params: z.object({ id: z.string().min(1).max(128), userId: z.string().min(1).max(128) }),
        response: { 200: memberRole, ...problemResponses(400, 401, 500) },
      },
    },
    async (request) =>
      getCurrentMemberRole({
        ctx: options,
        input: { organizationId: request.params.id, userId: request.params.userId },
      }),
  )
  app.post(
    '/api/v1/internal/first-party-clients',
    {
      onRequest: serviceOnly,
      schema: {
        summary: 'Register a first-party confidential client for a Guard process',
        description:
          "The collector registers its web console's sign-in client here on first start (authorization code with PKCE, confidential, no consent page). With the `client_id` it registered before, the redirect addresses are added to that client and no secret is returned; otherwise a new client is created and its secret is in this answer only.",
        tags: ['internal'],
        security: [{ serviceToken: [] }],
        body: z.object({
          client_id: z.string().min(1).max(200).optional(),
          name: z.string().min(1).max(200),
          redirect_uris: z.array(z.string().min(1).max(2048)).min(1).max(20),
          post_logout_redirect_uris: z.array(z.string().min(1).max(2048)).max(20).default([]),
        }),
        response: {
          200: z.object({ client_id: z.string(), client_secret: z.string().optional() }),
          ...problemResponses(400, 401, 500),
        },
      },
    },
    async (request) =>
      ensureFirstPartyClient(options.sql, {
        clientId: request.body.client_id,
        name: request.body.name,
        redirectUris: request.body.redirect_uris,
        postLogoutRedirectUris: request.body.post_logout_redirect_uris,
      }),
  )
}
