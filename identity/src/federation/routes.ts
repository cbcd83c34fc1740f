import type { GuardFastify, Sql } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { authenticateAdmin } from '../admin/authenticate.ts'
import { ADMIN_PREFIX, type AdminOptions } from '../admin/routes.ts'
import type { OAuthContext } from '../oauth/context.ts'
import { organizationCaller } from '../organizations/caller.ts'
import { problemResponses } from '../routes/schemas.ts'
import { type Actor, recordAudit } from '../services/audit/record.ts'
import { createFederationProvider } from '../services/federation/create-provider.ts'
import { deleteFederationProvider } from '../services/federation/delete-provider.ts'
import { getFederationProvider } from '../services/federation/find-provider.ts'
import { listFederationProviders } from '../services/federation/list-providers.ts'
import {
  type FederationProvider,
  federationProviderInput,
  federationProviderUpdate,
  federationProviderView,
  providerView,
} from '../services/federation/provider.ts'
import { updateFederationProvider } from '../services/federation/update-provider.ts'
import { assertMayConfigureFederation } from '../services/memberships/policy.ts'
import { getOrganization } from '../services/organizations/view.ts'

const errors = problemResponses(400, 401, 403, 404)
const security = [{ bearer: [] }]
const providerList = z.object({ providers: z.array(federationProviderView) })
const organizationField = z
  .string()
  .min(1)
  .optional()
  .describe("id or slug of the organization the provider is for; absent: the whole installation's")
const adminCreate = federationProviderInput.extend({ organization: organizationField })
const ADMIN_BASE = `${ADMIN_PREFIX}/federation/providers`
const ORG_BASE = '/api/v1/organizations/:organization/federation/providers'
const orgParam = z.object({ organization: z.string().min(1).describe('organization id or slug') })
const idParam = z.object({ id: z.string().min(1) })

/**
 * Upstream sign-in providers: the operator's for the installation or any organization (admin
 * API), an organization's own for its owners (with a first-party token, like renaming it). Every
 * change goes to the audit log in its transaction; the client secret never leaves identity.
 */
export async function federationRoutes(app: GuardFastify, ctx: OAuthContext, options: AdminOptions = {}) {
  const service = () => ({ secretKey: ctx.secrets.federationSecrets, allowPrivate: ctx.allowPrivateTargets })
  const view = (provider: FederationProvider) => providerView(provider, ctx.issuer)
  const audited = (actor: Actor, action: string, work: (tx: Sql) => Promise<FederationProvider>) =>
    ctx.sql.transaction(async (tx: Sql) => {
      const provider = await work(tx)
      await recordAudit(tx, actor, {
        action,
        targetType: 'federation_provider',
        targetId: provider.id,
        details: { name: provider.name, issuer: provider.issuer, organizationId: provider.organizationId },
      })
      return provider
    })

  /** The operator reaches every provider; its own scope is then the one it is in. */
  const getProviderAnywhere = async (id: string) => {
    const { rows } = await ctx.sql.query<{ organization_id: string | null }>(
      'SELECT organization_id FROM identity.federation_providers WHERE id = $1',
      [id],
    )
    return getFederationProvider(ctx.sql, id, { organizationId: rows[0]?.organization_id ?? null })
  }

  await app.register(async (instance) => {
    const admin = instance.withTypeProvider<ZodTypeProvider>()
    const operator = (request: FastifyRequest): Promise<Actor> =>
      options.localOperator
        ? Promise.resolve({ ...options.localOperator, ip: undefined, userAgent: undefined })
        : authenticateAdmin(ctx, request)
    const scopeOf = async (organization: string | undefined) =>
      organization ? (await getOrganization(ctx.sql, organization)).id : null
    const tags = ['admin']

    admin.get(
      ADMIN_BASE,
      {
        schema: {
          summary: 'List upstream sign-in providers',
          tags,
          security,
          querystring: z.object({ organization: organizationField }),
          response: { 200: providerList, ...errors },
        },
      },
      async (request) => {
        await operator(request)
        const providers = await listFederationProviders(ctx.sql, await scopeOf(request.query.organization))
        return { providers: providers.map(view) }
      },
    )
    admin.post(
      ADMIN_BASE,
      {
        schema: {
          summary: 'Add an upstream sign-in provider',
          description:
            "For the whole installation, or for `organization`. Register the answer's `redirectUri` at the upstream provider.",
          tags,
          security,
          body: adminCreate,
          response: { 201: federationProviderView, ...errors },
        },
      },
      async (request, reply) => {
        const actor = await operator(request)
        const { organization, ...input } = request.body
        const organizationId = await scopeOf(organization)
        const provider = await audited(actor, 'federation.provider.create', (tx) =>
          createFederationProvider({ sql: tx, ...service(), organizationId, input }),
        )
        return reply.status(201).send(view(provider))
      },
    )
    admin.patch(
      `${ADMIN_BASE}/:id`,
      {
        schema: {
          summary: 'Change an upstream sign-in provider',
          tags,
          security,
          params: idParam,
          body: federationProviderUpdate,
          response: { 200: federationProviderView, ...errors },
        },
      },
      async (request) => {
        const actor = await operator(request)
        const current = await getProviderAnywhere(request.params.id)
        const provider = await audited(actor, 'federation.provider.update', (tx) =>
          updateFederationProvider({
            sql: tx,
            ...service(),
            organizationId: current.organizationId,
            id: current.id,
            input: request.body,
          }),
        )
        return view(provider)
      },
    )
    admin.delete(
      `${ADMIN_BASE}/:id`,
      {
        schema: {
          summary: 'Remove an upstream sign-in provider',
          description: 'Accounts it linked stay linked to their issuer and subject.',
          tags,
          security,
          params: idParam,
          response: { 200: federationProviderView, ...errors },
        },
      },
      async (request) => {
        const actor = await operator(request)
        const current = await getProviderAnywhere(request.params.id)
        const provider = await audited(actor, 'federation.provider.delete', (tx) =>
          deleteFederationProvider({ sql: tx, organizationId: current.organizationId, id: current.id }),
        )
        return view(provider)
      },
    )
  })

  await app.register(async (instance) => {
    const routes = instance.withTypeProvider<ZodTypeProvider>()
    const tags = ['account']
    /** The organization and its owner (or a platform admin) calling, or 403/404. */
    const owner = async (request: FastifyRequest, organization: string) => {
      const found = await getOrganization(ctx.sql, organization)
      const caller = await organizationCaller(ctx, request, found.id)
      assertMayConfigureFederation(caller)
      return { organizationId: found.id, actor: caller.actor }
    }

    routes.get(
      ORG_BASE,
      {
        schema: {
          summary: "List my organization's upstream sign-in providers",
          tags,
          security,
          params: orgParam,
          response: { 200: providerList, ...errors },
        },
      },
      async (request) => {
        const { organizationId } = await owner(request, request.params.organization)
        return { providers: (await listFederationProviders(ctx.sql, organizationId)).map(view) }
      },
    )
    routes.post(
      ORG_BASE,
      {
        schema: {
          summary: 'Add an upstream sign-in provider to my organization',
          description:
            "Owners only. People of its allowed e-mail domains see it on the sign-in page; with `required`, the organization's members may not sign in with a password.",
          tags,
          security,
          params: orgParam,
          body: federationProviderInput,
          response: { 201: federationProviderView, ...errors },
        },
      },
      async (request, reply) => {
        const { organizationId, actor } = await owner(request, request.params.organization)
        const provider = await audited(actor, 'federation.provider.create', (tx) =>
          createFederationProvider({ sql: tx, ...service(), organizationId, input: request.body }),
        )
        return reply.status(201).send(view(provider))
      },
    )
    routes.patch(
      `${ORG_BASE}/:id`,
      {
        schema: {
          summary: "Change my organization's upstream sign-in provider",
          tags,
          security,
          params: orgParam.extend(idParam.shape),
          body: federationProviderUpdate,
          response: { 200: federationProviderView, ...errors },
        },
      },
      async (request) => {
        const { organizationId, actor } = await owner(request, request.params.organization)
        const provider = await audited(actor, 'federation.provider.update', (tx) =>
          updateFederationProvider({
            sql: tx,
            ...service(),
            organizationId,
            id: request.params.id,
            input: request.body,
          }),
        )
        return view(provider)
      },
    )
    routes.delete(
      `${ORG_BASE}/:id`,
      {
        schema: {
          summary: "Remove my organization's upstream sign-in provider",
          tags,
          security,
          params: orgParam.extend(idParam.shape),
          response: { 200: federationProviderView, ...errors },
        },
      },
      async (request) => {
        const { organizationId, actor } = await owner(request, request.params.organization)
        const provider = await audited(actor, 'federation.provider.delete', (tx) =>
          deleteFederationProvider({ sql: tx, organizationId, id: request.params.id }),
        )
        return view(provider)
      },
    )
  })
}
