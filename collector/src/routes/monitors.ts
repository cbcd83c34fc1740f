import { GuardError, type GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { hasPermission } from '../services/access/permissions.ts'
import { testMonitor, testMonitorInput, testMonitorResult } from '../services/monitors/test.ts'
import { listLocations, locationView } from '../services/probes/list-locations.ts'
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
