import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { ACTIONS, type Permission, RESOURCES } from '../services/access/permissions.ts'
import { groupQuery } from '../services/groups/filter.ts'
import { checkService } from '../services/services/check.ts'
import { createService } from '../services/services/create.ts'
import { deleteService } from '../services/services/delete.ts'
import { getService } from '../services/services/get.ts'
import { serviceHistory } from '../services/services/history.ts'
import { listServices } from '../services/services/list.ts'
import { listProtocols, protocolInfo } from '../services/services/protocols.ts'
import {
  checkOutcome,
  createServiceInput,
  serviceHistoryEntry,
  serviceView,
  updateServiceInput,
} from '../services/services/schemas.ts'
import { updateService } from '../services/services/update.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'
import { monitorLatencyRoute } from './monitor-latency.ts'

const read = { access: { permission: 'services:read' as const } }
/** Reads whose response only a write or an ingested result can change (README "Read cache"). */
const cachedRead = { ...read, readCache: true }
/** Cached until the service's own results (or a write) change it. */
const monitorRead = { ...read, readCache: 'monitor' as const }
const write = { access: { permission: 'services:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
/** Any permission at all: the protocol catalog is the same for everyone and tells nothing about an organization. */
const anyCaller = {
  access: { anyOf: RESOURCES.flatMap((resource) => ACTIONS.map((action): Permission => `${resource}:${action}`)) },
}

export function serviceRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/protocols',
    {
      config: anyCaller,
      schema: {
        description:
          'Every protocol a service can use: kind (the `protocol` field), label, description, default port, the JSON Schema of its options (the rest of `protocolConfig` besides host and port) and its write-only secret fields (README "Check protocols").',
        response: { 200: envelope(z.array(protocolInfo)), ...errorResponses },
      },
    },
    async () => ok(listProtocols()),
  )

  app.get(
    '/api/services',
    {
      config: cachedRead,
      schema: {
        querystring: organizationQuery.extend({ tag: tagQuery, ...groupQuery }),
        response: { 200: envelope(z.array(serviceView)), ...errorResponses },
      },
    },
    async (request) =>
      ok(await listServices(ctx, callerOf(request), request.query.organizationId, request.query.tag, request.query)),
  )

  app.post(
    '/api/services',
    {
      config: write,
      schema: {
        querystring: organizationQuery,
        body: createServiceInput,
        response: { 201: envelope(serviceView), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const service = await createService({
        ctx,
        caller,
        input: { ...request.body, organizationId: request.query.organizationId },
      })
      return reply.status(201).send(ok(await getService(ctx, caller, service.id)))
    },
  )

  app.get(
    '/api/services/:id',
    { config: monitorRead, schema: { params: idParams, response: { 200: envelope(serviceView), ...errorResponses } } },
    async (request) => ok(await getService(ctx, callerOf(request), request.params.id)),
  )

  app.put(
    '/api/services/:id',
    {
      config: write,
      schema: {
        params: idParams,
        body: updateServiceInput,
        response: { 200: envelope(serviceView), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      await updateService({ ctx, caller, input: { ...request.body, id: request.params.id } })
      return ok(await getService(ctx, caller, request.params.id))
    },
  )

  app.delete(
    '/api/services/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await deleteService({ ctx, caller: callerOf(request), input: { id: request.params.id } })
      return ok({ id: request.params.id, deleted: true as const })
    },
  )

  app.post(
    '/api/services/:id/check',
    {
      config: { ...write, bulk: true },
      schema: {
        description:
          'Runs a check now on one probe (request/reply) and returns its result; counts as a bulk operation. With `store=true` the result is also recorded like a scheduled check (history, state, incidents); by default it is only returned.',
        params: idParams,
        querystring: z.object({ store: z.stringbool().default(false) }),
        response: { 200: envelope(checkOutcome), ...errorResponses, 503: errorSchema, 504: errorSchema },
      },
    },
    async (request) =>
      ok(await checkService(ctx, callerOf(request), request.params.id, { store: request.query.store })),
  )

  app.get(
    '/api/services/:id/history',
    {
      config: monitorRead,
      schema: {
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
        response: { 200: envelope(z.array(serviceHistoryEntry)), ...errorResponses },
      },
    },
    async (request) => ok(await serviceHistory(ctx, callerOf(request), request.params.id, request.query.limit)),
  )

  monitorLatencyRoute(app, ctx, { path: '/api/services/:id/latency', kind: 'service', permission: 'services:read' })
}
