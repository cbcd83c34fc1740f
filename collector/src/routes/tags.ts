import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import type { Permission } from '../services/access/permissions.ts'
import { MONITOR_KINDS, readPermission, writePermission } from '../services/monitors/kinds/index.ts'
import { bulkInput, bulkMonitors, bulkResult } from '../services/tags/bulk.ts'
import { listTags } from '../services/tags/list.ts'
import { setTagColorInput, tagView } from '../services/tags/schemas.ts'
import { setTagColor } from '../services/tags/set-color.ts'
import { envelope, errorResponses, ok } from './common.ts'

const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
const anyRead = {
  access: { anyOf: MONITOR_KINDS.map(readPermission) satisfies Permission[] },
}
const anyWrite = {
  access: { anyOf: MONITOR_KINDS.map(writePermission) satisfies Permission[] },
}

export function tagRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/tags',
    {
      config: { ...anyRead, readCache: true },
      schema: {
        description:
          'Every tag in use in the organization (`key` or `key:value`) with how many domains, services, heartbeats and devices carry it, and its key’s colour.',
        querystring: organizationQuery,
        response: { 200: envelope(z.array(tagView)), ...errorResponses },
      },
    },
    async (request) =>
      ok(await listTags({ ctx, caller: callerOf(request), input: { organizationId: request.query.organizationId } })),
  )

  app.put(
    '/api/tags/:key',
    {
      config: anyWrite,
      schema: {
        description: 'Sets the colour (`#rrggbb`) of a tag key for the whole organization.',
        params: z.object({ key: z.string().min(1).max(200) }),
        querystring: organizationQuery,
        body: setTagColorInput,
        response: { 200: envelope(z.object({ key: z.string(), color: z.string() })), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await setTagColor({
          ctx,
          caller: callerOf(request),
          input: { key: request.params.key, color: request.body.color, organizationId: request.query.organizationId },
        }),
      ),
  )

  app.post(
    '/api/monitors/bulk',
    {
      config: { ...anyWrite, bulk: true },
      schema: {
        description:
          'One action on every domain, service, heartbeat and device of the organization the filter selects (`kinds`, `tags` as on the list routes, `ids`; every field named must match): pause, resume, delete, addTag, removeTag (a bare key removes every tag of it), setInterval (domains and services), setLocations (domains and services). `dryRun` is true unless set to false: it counts and changes nothing. Needs write permission on every kind acted on. Counts as a bulk operation.',
        body: bulkInput,
        response: { 200: envelope(bulkResult), ...errorResponses },
      },
    },
    async (request) => ok(await bulkMonitors({ ctx, caller: callerOf(request), input: request.body })),
  )
}
