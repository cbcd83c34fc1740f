import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createChannel } from '../services/notifications/channels/create.ts'
import { deleteChannel } from '../services/notifications/channels/delete.ts'
import { findChannel, toChannelView } from '../services/notifications/channels/find.ts'
import { listChannels } from '../services/notifications/channels/list.ts'
import { channelView, createChannelInput, updateChannelInput } from '../services/notifications/channels/schemas.ts'
import { testChannel } from '../services/notifications/channels/test.ts'
import { updateChannel } from '../services/notifications/channels/update.ts'
import { deletePolicy } from '../services/notifications/escalation/delete-policy.ts'
import { listPolicies } from '../services/notifications/escalation/list-policies.ts'
import { savePolicy } from '../services/notifications/escalation/save-policy.ts'
import { notificationProviders } from '../services/notifications/providers/index.ts'
import { deleteRoute } from '../services/notifications/routing/delete-route.ts'
import { listRoutes } from '../services/notifications/routing/list-routes.ts'
import { saveRoute } from '../services/notifications/routing/save-route.ts'
import { policyInput, policyView, routeInput, routeView } from '../services/notifications/routing/schemas.ts'
import { deleted, envelope, errorResponses, idParams, ok } from './common.ts'

const read = { access: { permission: 'notifications:read' as const } }
const write = { access: { permission: 'notifications:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })

const providerView = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  configSchema: z.record(z.string(), z.unknown()).describe("JSON Schema of the provider's settings"),
  secretFields: z.array(z.string()),
})

const testResult = z.object({
  channelId: z.string(),
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  error: z.string().optional(),
  retryAfterMs: z.number().optional(),
  permanent: z.boolean().optional(),
})

/** Organization channels, the routes that choose them, and escalation policies (README "Alerting"). */
export function notificationChannelRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/notification-providers',
    { config: read, schema: { response: { 200: envelope(z.array(providerView)), ...errorResponses } } },
    async () =>
      ok(
        Object.values(notificationProviders).map((provider) => ({
          id: provider.id,
          label: provider.label,
          description: provider.description,
          configSchema: z.toJSONSchema(provider.config, { io: 'input', unrepresentable: 'any' }) as Record<
            string,
            unknown
          >,
          secretFields: [...provider.secretFields],
        })),
      ),
  )
  app.get(
    '/api/notification-channels',
    {
      config: read,
      schema: { querystring: organizationQuery, response: { 200: envelope(z.array(channelView)), ...errorResponses } },
    },
    async (request) => ok(await listChannels({ ctx, caller: callerOf(request), input: request.query })),
  )
  app.post(
    '/api/notification-channels',
    {
      config: write,
      schema: {
        description:
          "A channel of the organization, shared by every route. URLs must be https (http only where private targets are allowed) and pass the SSRF guard; secret fields are sealed and never shown again. A webhook channel's signing secret is generated when left out and returned once.",
        querystring: organizationQuery,
        body: createChannelInput,
        response: { 201: envelope(channelView), ...errorResponses, 422: errorResponses[400] },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(await createChannel({ ctx, caller: callerOf(request), input: { ...request.body, ...request.query } })),
        ),
  )
  app.get(
    '/api/notification-channels/:id',
    { config: read, schema: { params: idParams, response: { 200: envelope(channelView), ...errorResponses } } },
    async (request) =>
      ok(toChannelView(ctx, await findChannel(ctx.sql, callerOf(request).organizationIds, request.params.id))),
  )
  app.put(
    '/api/notification-channels/:id',
    {
      config: write,
      schema: {
        params: idParams,
        body: updateChannelInput,
        response: { 200: envelope(channelView), ...errorResponses, 422: errorResponses[400] },
      },
    },
    async (request) =>
      ok(await updateChannel({ ctx, caller: callerOf(request), input: { ...request.body, id: request.params.id } })),
  )
  app.delete(
    '/api/notification-channels/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => ok(await deleteChannel({ ctx, caller: callerOf(request), input: request.params })),
  )
  app.post(
    '/api/notification-channels/:id/test',
    {
      config: write,
      schema: {
        description: "Sends a test message now and answers with the service's verdict; the channel's state follows it.",
        params: idParams,
        response: { 200: envelope(testResult), ...errorResponses },
      },
    },
    async (request) => ok(await testChannel({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.get(
    '/api/notification-routes',
    {
      config: read,
      schema: { querystring: organizationQuery, response: { 200: envelope(z.array(routeView)), ...errorResponses } },
    },
    async (request) => ok(await listRoutes({ ctx, caller: callerOf(request), input: request.query })),
  )
  app.post(
    '/api/notification-routes',
    {
      config: write,
      schema: {
        description:
          'Routes are tried in ascending position; the first whose selector matches takes the incident (unless it continues), and the default route takes the rest.',
        querystring: organizationQuery,
        body: routeInput,
        response: { 201: envelope(routeView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await saveRoute({ ctx, caller: callerOf(request), input: { ...request.body, ...request.query } }))),
  )
  app.put(
    '/api/notification-routes/:id',
    {
      config: write,
      schema: { params: idParams, body: routeInput, response: { 200: envelope(routeView), ...errorResponses } },
    },
    async (request) =>
      ok(await saveRoute({ ctx, caller: callerOf(request), input: { ...request.body, id: request.params.id } })),
  )
  app.delete(
    '/api/notification-routes/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => ok(await deleteRoute({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.get(
    '/api/escalation-policies',
    {
      config: read,
      schema: { querystring: organizationQuery, response: { 200: envelope(z.array(policyView)), ...errorResponses } },
    },
    async (request) => ok(await listPolicies({ ctx, caller: callerOf(request), input: request.query })),
  )
  app.post(
    '/api/escalation-policies',
    {
      config: write,
      schema: {
        description:
          'Ordered steps: after N minutes unacknowledged, notify these channels; repeated `repeat` times. A route uses a policy.',
        querystring: organizationQuery,
        body: policyInput,
        response: { 201: envelope(policyView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await savePolicy({ ctx, caller: callerOf(request), input: { ...request.body, ...request.query } }))),
  )
  app.put(
    '/api/escalation-policies/:id',
    {
      config: write,
      schema: { params: idParams, body: policyInput, response: { 200: envelope(policyView), ...errorResponses } },
    },
    async (request) =>
      ok(await savePolicy({ ctx, caller: callerOf(request), input: { ...request.body, id: request.params.id } })),
  )
  app.delete(
    '/api/escalation-policies/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => ok(await deletePolicy({ ctx, caller: callerOf(request), input: request.params })),
  )
}
