import { GuardError, type GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { hasPermission } from '../services/access/permissions.ts'
import { MONITOR_KINDS, readPermission } from '../services/monitors/kinds/index.ts'
import { monitorMatch, SUBJECT_KINDS, searchMonitors } from '../services/monitors/search.ts'
import { testMonitor, testMonitorInput, testMonitorResult } from '../services/monitors/test.ts'
import { listLocations, locationView } from '../services/probes/list-locations.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { envelope, errorResponses, errorSchema, ok } from './common.ts'

export function monitorRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.post(
    '/api/monitors/test',
    {
      config: { access: { anyOf: ['domains:write', 'services:write'] }, bulk: true },
      schema: {
        description:
          'Runs one check with the given domain or service options from one probe of `location` and returns the full result; stores nothing. Counts as a bulk operation. 504 when no probe of that location answers in time.',
        body: testMonitorInput,
        response: { 200: envelope(testMonitorResult), ...errorResponses, 504: errorSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      const needed = request.body.domain ? 'domains:write' : 'services:write'
      if (!hasPermission(caller.permissions, needed)) throw new GuardError('FORBIDDEN', `Missing permission ${needed}`)
      return ok(await testMonitor({ ctx, caller, input: request.body }))
    },
  )

  app.get(
    '/api/monitors',
    {
      config: { access: { anyOf: MONITOR_KINDS.map(readPermission) } },
      schema: {
        description:
          'Monitors and devices of every kind the caller may read, in one list by name: `search` matches names (and domain URLs), `kind`, `tag` and `id` narrow it (repeat any), the first `limit` (50, at most 200) by name. What pickers use to reach any monitor of thousands.',
        querystring: z.object({
          search: z.string().max(200).optional(),
          kind: z
            .union([z.enum(SUBJECT_KINDS), z.array(z.enum(SUBJECT_KINDS)).max(SUBJECT_KINDS.length)])
            .optional()
            .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value])),
          tag: tagQuery,
          id: z
            .union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(200)])
            .optional()
            .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value])),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          organization: z.string().max(64).optional(),
        }),
        response: { 200: envelope(z.array(monitorMatch)), ...errorResponses },
      },
    },
    async (request) => {
      const { search, kind, tag, id, limit, organization } = request.query
      return ok(
        await searchMonitors({
          ctx,
          caller: callerOf(request),
          input: { search, kinds: kind, tags: tag, ids: id, limit, organizationId: organization },
        }),
      )
    },
  )

  app.get(
    '/api/locations',
    {
      config: { access: { anyOf: ['domains:read', 'services:read'] } },
      schema: {
        description:
          'Every known probe location with its probes (id, version, last heartbeat, schedule lag p99, outbox depth, checks per second) and whether it is online.',
        response: { 200: envelope(z.array(locationView)), ...errorResponses },
      },
    },
    async () => ok(await listLocations({ ctx })),
  )
}
