import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { groupQuery } from '../services/groups/filter.ts'
import { createHeartbeat } from '../services/heartbeats/create.ts'
import { heartbeatDay, heartbeatDaysQuery, readHeartbeatHistory } from '../services/heartbeats/daily-history.ts'
import { deleteHeartbeat } from '../services/heartbeats/delete.ts'
import { getHeartbeat } from '../services/heartbeats/get.ts'
import { listHeartbeats } from '../services/heartbeats/list.ts'
import { listHeartbeatPings } from '../services/heartbeats/list-pings.ts'
import { regenerateHeartbeatToken } from '../services/heartbeats/regenerate-token.ts'
import {
  createHeartbeatInput,
  heartbeatPingEntry,
  heartbeatView,
  updateHeartbeatInput,
} from '../services/heartbeats/schemas.ts'
import { updateHeartbeat } from '../services/heartbeats/update.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { deleted, envelope, errorResponses, idParams, ok } from './common.ts'
import { fileNamePart, responseFormat, sendCsv, wantsCsv } from './csv.ts'

const read = { access: { permission: 'heartbeats:read' as const } }
const write = { access: { permission: 'heartbeats:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })

/** Heartbeat monitors: jobs that report in (README "Heartbeat monitors"); the pings arrive at /ping. */
export function heartbeatRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/heartbeats',
    {
      config: read,
      schema: {
        querystring: organizationQuery.extend({ tag: tagQuery, ...groupQuery }),
        response: { 200: envelope(z.array(heartbeatView)), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await listHeartbeats({
          ctx,
          caller: callerOf(request),
          input: { ...request.query, tags: request.query.tag },
        }),
      ),
  )

  app.post(
    '/api/heartbeats',
    {
      config: write,
      schema: {
        description:
          'Creates a heartbeat monitor: give `every` (seconds) or `cron` with `timezone`. The answer holds its `pingUrl`. Counts toward the plan’s monitor limit.',
        querystring: organizationQuery,
        body: createHeartbeatInput,
        response: { 201: envelope(heartbeatView), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const heartbeat = await createHeartbeat({
        ctx,
        caller,
        input: { ...request.body, organizationId: request.query.organizationId },
      })
      return reply.status(201).send(ok(await getHeartbeat({ ctx, caller, input: { id: heartbeat.id } })))
    },
  )

  app.get(
    '/api/heartbeats/:id',
    { config: read, schema: { params: idParams, response: { 200: envelope(heartbeatView), ...errorResponses } } },
    async (request) => ok(await getHeartbeat({ ctx, caller: callerOf(request), input: { id: request.params.id } })),
  )

  app.patch(
    '/api/heartbeats/:id',
    {
      config: write,
      schema: {
        params: idParams,
        body: updateHeartbeatInput,
        response: { 200: envelope(heartbeatView), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      await updateHeartbeat({ ctx, caller, input: { id: request.params.id, changes: request.body } })
      return ok(await getHeartbeat({ ctx, caller, input: { id: request.params.id } }))
    },
  )

  app.delete(
    '/api/heartbeats/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await deleteHeartbeat({ ctx, caller: callerOf(request), input: { id: request.params.id } })
      return ok({ id: request.params.id, deleted: true as const })
    },
  )

  app.post(
    '/api/heartbeats/:id/regenerate-token',
    {
      config: write,
      schema: {
        description: 'A new ping URL; the old one answers 404 from now on.',
        params: idParams,
        response: { 200: envelope(heartbeatView), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      await regenerateHeartbeatToken({ ctx, caller, input: { id: request.params.id } })
      return ok(await getHeartbeat({ ctx, caller, input: { id: request.params.id } }))
    },
  )

  app.get(
    '/api/heartbeats/:id/pings',
    {
      config: read,
      schema: {
        description:
          'The run log: the newest pings, with their bodies (up to 100 kB each), source IP and run duration.',
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
        response: { 200: envelope(z.array(heartbeatPingEntry)), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await listHeartbeatPings({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, limit: request.query.limit },
        }),
      ),
  )

  app.get(
    '/api/heartbeats/:id/daily',
    {
      config: read,
      schema: {
        description:
          'The history per calendar day (UTC), oldest first, today last: runs, failures, missed windows, uptime and run durations (runs with a `/start`). Days without data are present, with no run. `format=csv` or `Accept: text/csv` answers one CSV row per day, the heartbeat’s name first (empty cells for null).',
        params: idParams,
        querystring: heartbeatDaysQuery.extend({ format: responseFormat }),
        produces: ['application/json', 'text/csv'],
        response: { 200: z.union([envelope(z.array(heartbeatDay)), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const history = await readHeartbeatHistory({
        ctx,
        caller: callerOf(request),
        input: { id: request.params.id, days: request.query.days },
      })
      if (!wantsCsv(request, request.query.format)) return ok(history.days)
      return sendCsv(
        reply,
        `${fileNamePart(history.name, 'heartbeat')}-daily-${request.query.days}d`,
        ['heartbeat', ...Object.keys(heartbeatDay.shape)],
        history.days.map((day) => ({ heartbeat: history.name, ...day })),
      )
    },
  )
}
