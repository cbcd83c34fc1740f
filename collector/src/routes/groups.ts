import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createGroup } from '../services/groups/create.ts'
import { deleteGroup } from '../services/groups/delete.ts'
import { getGroup } from '../services/groups/get.ts'
import { listGroups } from '../services/groups/list.ts'
import {
  createGroupInput,
  groupDetail,
  groupTreeNode,
  MAX_GROUP_DEPTH,
  setMembersInput,
  updateGroupInput,
} from '../services/groups/schemas.ts'
import { setGroupMembers } from '../services/groups/set-members.ts'
import { updateGroup } from '../services/groups/update.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'

// Cached until a write or a member's state changes with ingested results; a device's shows within the TTL.
const read = { access: { permission: 'groups:read' as const }, readCache: 'states' as const }
const write = { access: { permission: 'groups:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
const writeResponses = { ...errorResponses, 409: errorSchema }

/** Groups of monitors and devices with states derived from their members' (README "Groups"). */
export function groupRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/groups',
    {
      config: read,
      schema: {
        description: `The organization's groups as a tree (at most ${MAX_GROUP_DEPTH} levels), each with its derived state.`,
        querystring: organizationQuery,
        response: { 200: envelope(z.array(groupTreeNode)), ...errorResponses },
      },
    },
    async (request) => ok(await listGroups({ ctx, caller: callerOf(request), input: request.query })),
  )
  app.post(
    '/api/groups',
    {
      config: write,
      schema: {
        description: `A group, top-level or under \`parentId\`; groups nest at most ${MAX_GROUP_DEPTH} levels deep.`,
        querystring: organizationQuery,
        body: createGroupInput,
        response: { 201: envelope(groupDetail), ...writeResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await createGroup({ ctx, caller: callerOf(request), input: { ...request.body, ...request.query } }))),
  )
  app.get(
    '/api/groups/:id',
    { config: read, schema: { params: idParams, response: { 200: envelope(groupDetail), ...errorResponses } } },
    async (request) => ok(await getGroup({ ctx, caller: callerOf(request), input: request.params })),
  )
  app.put(
    '/api/groups/:id',
    {
      config: write,
      schema: {
        description: 'Changes a group; `parentId: null` moves it to the top level. A group cannot be its own ancestor.',
        params: idParams,
        body: updateGroupInput,
        response: { 200: envelope(groupDetail), ...writeResponses },
      },
    },
    async (request) =>
      ok(await updateGroup({ ctx, caller: callerOf(request), input: { ...request.body, id: request.params.id } })),
  )
  app.delete(
    '/api/groups/:id',
    {
      config: write,
      schema: {
        description: 'Deletes a group; its members become ungrouped and its child groups top-level.',
        params: idParams,
        response: { 200: deleted, ...errorResponses },
      },
    },
    async (request) => ok(await deleteGroup({ ctx, caller: callerOf(request), input: request.params })),
  )
  app.put(
    '/api/groups/:id/members',
    {
      config: write,
      schema: {
        description:
          'Adds and removes members (domains, services, heartbeats, devices of the organization). A member is in one group at most: adding one moves it from its group.',
        params: idParams,
        body: setMembersInput,
        response: { 200: envelope(groupDetail), ...errorResponses },
      },
    },
    async (request) =>
      ok(await setGroupMembers({ ctx, caller: callerOf(request), input: { ...request.body, id: request.params.id } })),
  )
}
