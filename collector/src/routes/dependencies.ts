import type { GuardFastify } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import type { Permission } from '../services/access/permissions.ts'
import { getDependencies } from '../services/dependencies/get.ts'
import { dependenciesView, setDependenciesInput } from '../services/dependencies/schemas.ts'
import { setDependencies } from '../services/dependencies/set.ts'
import { MONITOR_ROW_KINDS, readPermission, writePermission } from '../services/monitors/kinds/index.ts'
import { envelope, errorResponses, idParams, ok } from './common.ts'

/**
 * Any monitor kind (devices have no dependencies): the service checks the permission of the
 * monitor's own kind. Cached as the monitor's pages: the incident engine and the release job
 * invalidate them when they change its `suppressedBy`.
 */
const read = {
  access: { anyOf: MONITOR_ROW_KINDS.map(readPermission) satisfies Permission[] },
  readCache: 'monitor' as const,
}
const write = { access: { anyOf: MONITOR_ROW_KINDS.map(writePermission) satisfies Permission[] } }

export function dependencyRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/monitors/:id/dependencies',
    {
      config: read,
      schema: {
        description:
          'The monitors this domain, service or heartbeat depends on, those depending on it, and, while a parent is down, the parent and incident its failure is counted under (`suppressedBy`).',
        params: idParams,
        response: { 200: envelope(dependenciesView), ...errorResponses },
      },
    },
    async (request) => ok(await getDependencies({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.put(
    '/api/monitors/:id/dependencies',
    {
      config: write,
      schema: {
        description:
          "Replaces the monitors this one depends on. While one of them is down, this monitor going down opens no incident and notifies no one: the failure is recorded as suppressed under the parent's incident. Monitors of the same organization only; a self-dependency or a cycle is refused (400).",
        params: idParams,
        body: setDependenciesInput,
        response: { 200: envelope(dependenciesView), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await setDependencies({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, dependsOn: request.body.dependsOn },
        }),
      ),
  )
}
