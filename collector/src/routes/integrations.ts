import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { deleteAccount } from '../integrations/delete-account.ts'
import { linkCloudAAccount, linkSelfhostBInstance } from '../integrations/link-account.ts'
import { accountView, listAccounts } from '../integrations/list-accounts.ts'
import { listAccountItems } from '../integrations/list-items.ts'
import { listPlatforms, platformLabel } from '../integrations/list-platforms.ts'
import { monitorItem } from '../integrations/monitor-item.ts'
import { monitorableItem, type ProviderId } from '../integrations/provider.ts'
import {
  cloudAAccountView,
  integrationPlatform,
  linkCloudAInput,
  linkSelfhostBInput,
  monitorItemInput,
  monitorItemResult,
  selfhostBInstanceView,
  startWebhostCInput,
  webhostCAccountView,
  webhostCAuthorization,
} from '../integrations/schemas.ts'
import { startWebhostCLink } from '../integrations/webhost-c/authorize.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { deleted, envelope, errorResponses, errorSchema, ok } from './common.ts'

const read = { access: { permission: 'integrations:read' as const } }
const write = { access: { permission: 'integrations:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
const id = z.string().min(1).max(64)
const itemParam = z.string().min(1).max(64)
/** What calls to a platform can add to the usual errors. */
const providerErrors = { 409: errorSchema, 422: errorSchema, 502: errorSchema, 503: errorSchema }

interface Shape {
  provider: ProviderId
  /** The collection segment (`accounts`, `instances`), its id parameter and the items segment. */
  collection: string
  idParam: string
  items: string
  itemParam: string
  view: z.ZodObject
}

const shapes: Shape[] = [
  {
    provider: 'cloud-a',
    collection: 'accounts',
    idParam: 'accountId',
    items: 'services',
    itemParam: 'serviceId',
    view: cloudAAccountView,
  },
  {
    provider: 'selfhost-b',
    collection: 'instances',
    idParam: 'instanceId',
    items: 'resources',
    itemParam: 'resourceId',
    view: selfhostBInstanceView,
  },
  {
    provider: 'webhost-c',
    collection: 'accounts',
    idParam: 'accountId',
    items: 'projects',
    itemParam: 'projectId',
    view: webhostCAccountView,
  },
]

/** The routes every integration shares: list, delete, list items, monitor one item. */
function commonRoutes(app: GuardFastify, ctx: CollectorContext, shape: Shape): void {
  const base = `/api/${shape.provider}/${shape.collection}`
  const accountParams = z.object({ [shape.idParam]: id })
  const itemParams = z.object({ [shape.idParam]: id, [shape.itemParam]: itemParam })
  const accountIdOf = (params: Record<string, string>) => params[shape.idParam]!
  const platform = platformLabel(shape.provider)

  app.get(
    base,
    {
      config: read,
      schema: {
        description: `Linked ${platform} ${shape.collection}; secrets show only as a masked hint.`,
        querystring: organizationQuery,
        response: { 200: envelope(z.array(shape.view)), ...errorResponses },
      },
    },
    async (request) => {
      const accounts = await listAccounts({
        ctx,
        caller: callerOf(request),
        input: { provider: shape.provider, organization: request.query.organizationId },
      })
      return ok(accounts.map(accountView(shape.view)))
    },
  )

  app.delete(
    `${base}/:${shape.idParam}`,
    {
      config: write,
      schema: {
        description: `Unlinks a ${platform} ${shape.collection.slice(0, -1)} and forgets the stored secrets; monitors created from it keep running.`,
        params: accountParams,
        response: { 200: deleted, ...errorResponses },
      },
    },
    async (request) => {
      const accountId = accountIdOf(request.params as Record<string, string>)
      await deleteAccount({ ctx, caller: callerOf(request), input: { provider: shape.provider, id: accountId } })
      return ok({ id: accountId, deleted: true as const })
    },
  )

  app.get(
    `${base}/:${shape.idParam}/${shape.items}`,
    {
      config: read,
      schema: {
        description: `What the linked ${platform} ${shape.collection.slice(0, -1)} hosts that Guard can monitor, read from the platform now.`,
        params: accountParams,
        response: { 200: envelope(z.array(monitorableItem)), ...errorResponses, ...providerErrors },
      },
    },
    async (request) =>
      ok(
        await listAccountItems({
          ctx,
          caller: callerOf(request),
          input: { provider: shape.provider, accountId: accountIdOf(request.params as Record<string, string>) },
        }),
      ),
  )

  app.post(
    `${base}/:${shape.idParam}/${shape.items}/:${shape.itemParam}/monitor`,
    {
      config: write,
      schema: {
        description: `Creates the matching monitor for an item of ${platform}: a domain for a web endpoint, a tcp service for a host or database. The body is optional.`,
        params: itemParams,
        body: monitorItemInput,
        response: { 201: envelope(monitorItemResult), ...errorResponses, ...providerErrors },
      },
    },
    async (request, reply) => {
      const params = request.params as Record<string, string>
      const result = await monitorItem({
        ctx,
        caller: callerOf(request),
        input: {
          provider: shape.provider,
          accountId: accountIdOf(params),
          itemId: params[shape.itemParam]!,
          settings: request.body,
        },
      })
      return reply.status(201).send(ok(result))
    },
  )
}

export function integrationRoutes(app: GuardFastify, ctx: CollectorContext): void {
  for (const shape of shapes) commonRoutes(app, ctx, shape)

  const platforms = listPlatforms(shapes)
  app.get(
    '/api/integrations',
    {
      config: read,
      schema: {
        description: `The platforms accounts can be linked at: the product each neutral path segment stands for (${platforms.map((p) => `${p.id} is ${p.name}`).join(', ')}), what a link reads and where its routes are.`,
        response: { 200: envelope(z.array(integrationPlatform)), ...errorResponses },
      },
    },
    async () => ok(platforms),
  )

  app.post(
    '/api/cloud-a/accounts',
    {
      config: write,
      schema: {
        description:
          'Links a Microsoft Azure (cloud-a) subscription through a service principal: the credentials are checked against Azure (a client-credentials token from Microsoft Entra ID, then a read of the subscription) before anything is stored.',
        querystring: organizationQuery,
        body: linkCloudAInput,
        response: { 201: envelope(cloudAAccountView), ...errorResponses, ...providerErrors },
      },
    },
    async (request, reply) => {
      const account = await linkCloudAAccount({
        ctx,
        caller: callerOf(request),
        input: request.body,
        organization: request.query.organizationId,
      })
      return reply.status(201).send(ok(accountView(cloudAAccountView)(account)))
    },
  )

  app.post(
    '/api/selfhost-b/instances',
    {
      config: write,
      schema: {
        description:
          'Links a self-hosted Coolify (selfhost-b) instance by URL and API token, checked against the instance before it is stored.',
        querystring: organizationQuery,
        body: linkSelfhostBInput,
        response: { 201: envelope(selfhostBInstanceView), ...errorResponses, ...providerErrors },
      },
    },
    async (request, reply) => {
      const instance = await linkSelfhostBInstance({
        ctx,
        caller: callerOf(request),
        input: request.body,
        organization: request.query.organizationId,
      })
      return reply.status(201).send(ok(accountView(selfhostBInstanceView)(instance)))
    },
  )

  app.post(
    '/api/webhost-c/accounts',
    {
      config: write,
      schema: {
        description:
          "Starts linking a Vercel (webhost-c) account through OAuth 2.0 (authorization code with PKCE): send the user's browser to `authorizationUrl`; Vercel returns it to GET /api/webhost-c/callback, which completes the link. 503 when the operator has not configured a Vercel integration client.",
        querystring: organizationQuery,
        body: startWebhostCInput,
        response: { 200: envelope(webhostCAuthorization), ...errorResponses, 503: errorSchema },
      },
    },
    async (request) =>
      ok(
        await startWebhostCLink({
          ctx,
          caller: callerOf(request),
          input: request.body,
          organization: request.query.organizationId,
        }),
      ),
  )
}
