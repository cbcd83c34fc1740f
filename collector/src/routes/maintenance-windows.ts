import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createMaintenanceWindow } from '../services/maintenance-windows/create.ts'
import { deleteMaintenanceWindow } from '../services/maintenance-windows/delete.ts'
import { findMaintenanceWindow, toWindowView } from '../services/maintenance-windows/find.ts'
import { listMaintenanceWindows } from '../services/maintenance-windows/list.ts'
import {
  createMaintenanceWindowInput,
  maintenanceWindowView,
  updateMaintenanceWindowInput,
} from '../services/maintenance-windows/schemas.ts'
import { updateMaintenanceWindow } from '../services/maintenance-windows/update.ts'
import { deleted, envelope, errorResponses, idParams, ok } from './common.ts'

const read = { access: { permission: 'incidents:read' as const } }
const write = { access: { permission: 'incidents:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })

/** Checks keep running inside a window and their results are stored; no incident or notification is raised. */
export function maintenanceWindowRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/maintenance-windows',
    {
      config: read,
      schema: {
        querystring: organizationQuery,
        response: { 200: envelope(z.array(maintenanceWindowView)), ...errorResponses },
      },
    },
    async (request) => ok(await listMaintenanceWindows(ctx, callerOf(request), request.query.organizationId)),
  )
  app.post(
    '/api/maintenance-windows',
    {
      config: write,
      schema: {
        description:
          'A window for one monitor (monitorId) or the whole organization; one-off, or recurring daily or weekly from startsAt until `until`.',
        querystring: organizationQuery,
        body: createMaintenanceWindowInput,
        response: { 201: envelope(maintenanceWindowView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await createMaintenanceWindow(ctx, callerOf(request), request.body, request.query.organizationId))),
  )
  app.get(
    '/api/maintenance-windows/:id',
    {
      config: read,
      schema: { params: idParams, response: { 200: envelope(maintenanceWindowView), ...errorResponses } },
    },
    async (request) => ok(toWindowView(await findMaintenanceWindow(ctx.sql, callerOf(request), request.params.id))),
  )
  app.put(
    '/api/maintenance-windows/:id',
    {
      config: write,
      schema: {
        params: idParams,
        body: updateMaintenanceWindowInput,
        response: { 200: envelope(maintenanceWindowView), ...errorResponses },
      },
    },
    async (request) => ok(await updateMaintenanceWindow(ctx, callerOf(request), request.params.id, request.body)),
  )
  app.delete(
    '/api/maintenance-windows/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await deleteMaintenanceWindow(ctx, callerOf(request), request.params.id)
      return ok({ id: request.params.id, deleted: true as const })
    },
  )
}
