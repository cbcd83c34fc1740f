import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { acknowledgeIncident } from '../services/incidents/acknowledge.ts'
import { addCommentToIncident } from '../services/incidents/add-comment.ts'
import { addUpdateToIncident } from '../services/incidents/add-update.ts'
import { createIncident } from '../services/incidents/create.ts'
import { editIncidentPublicWording } from '../services/incidents/edit-public-wording.ts'
import { getIncident } from '../services/incidents/get.ts'
import { getIncidentPublicWording } from '../services/incidents/get-public-wording.ts'
import { listIncidents } from '../services/incidents/list.ts'
import { listIncidentComments } from '../services/incidents/list-comments.ts'
import { listIncidentUpdates } from '../services/incidents/list-updates.ts'
import { editPublicWordingInput, publicWordingView } from '../services/incidents/public-wording-schemas.ts'
import {
  addCommentInput,
  addUpdateInput,
  createIncidentInput,
  incidentCommentView,
  incidentDetail,
  incidentUpdateView,
  incidentView,
  listIncidentsQuery,
  updateIncidentInput,
} from '../services/incidents/schemas.ts'
import { updateIncident } from '../services/incidents/update.ts'
import { incidentTimelineView } from '../services/notifications/channels/schemas.ts'
import { listIncidentTimeline } from '../services/notifications/list-incident-timeline.ts'
import { envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'

const read = { access: { permission: 'incidents:read' as const } }
const write = { access: { permission: 'incidents:write' as const } }
const pagination = z.object({ page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number() })

export function incidentRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/incidents',
    {
      config: read,
      schema: {
        description: 'Incidents of one of your organizations, newest first.',
        querystring: listIncidentsQuery,
        response: {
          200: z.object({ success: z.literal(true), data: z.array(incidentView), pagination }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ success: true as const, ...(await listIncidents(ctx, callerOf(request), request.query)) }),
  )

  app.post(
    '/api/incidents',
    {
      config: write,
      schema: {
        description: 'Opens a manual incident.',
        querystring: z.object({ organizationId: z.string().max(64).optional() }),
        body: createIncidentInput,
        response: { 201: envelope(incidentView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await createIncident(ctx, callerOf(request), request.body, request.query.organizationId))),
  )

  app.get(
    '/api/incidents/:id',
    { config: read, schema: { params: idParams, response: { 200: envelope(incidentDetail), ...errorResponses } } },
    async (request) => ok(await getIncident(ctx, callerOf(request), request.params.id)),
  )

  app.put(
    '/api/incidents/:id',
    {
      config: write,
      schema: {
        description:
          'Changes status, severity, impact, title or description. Leaving `open` acknowledges the incident (who and when, once); `resolved` by hand stays resolved until the monitor next changes state.',
        params: idParams,
        body: updateIncidentInput,
        response: { 200: envelope(incidentView), ...errorResponses, 409: errorSchema },
      },
    },
    async (request) => ok(await updateIncident(ctx, callerOf(request), request.params.id, request.body)),
  )

  app.get(
    '/api/incidents/:id/public',
    {
      config: read,
      schema: {
        description: 'What status pages show of the incident (public title, published, public wording of each update).',
        params: idParams,
        response: { 200: envelope(publicWordingView), ...errorResponses },
      },
    },
    async (request) => ok(await getIncidentPublicWording({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.put(
    '/api/incidents/:id/public',
    {
      config: write,
      schema: {
        description:
          'Edits what status pages show: `publicTitle`, `published` (pages holding automatic incidents as drafts show it once published) and `updates` [{id, publicMessage}]; null returns to the derived wording.',
        params: idParams,
        body: editPublicWordingInput,
        response: { 200: envelope(publicWordingView), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await editIncidentPublicWording({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, ...request.body },
        }),
      ),
  )

  app.post(
    '/api/incidents/:id/acknowledge',
    {
      config: write,
      schema: {
        description:
          'Someone is on it: stops the escalation (reminders go on until it resolves) and tells every channel that heard of it. An incident not open is returned unchanged.',
        params: idParams,
        response: { 200: envelope(incidentView), ...errorResponses },
      },
    },
    async (request) => ok(await acknowledgeIncident({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.get(
    '/api/incidents/:id/notifications',
    {
      config: read,
      schema: {
        description:
          "The incident's alerting timeline: deliveries to channels (why and how they went) and escalations.",
        params: idParams,
        response: { 200: envelope(incidentTimelineView), ...errorResponses },
      },
    },
    async (request) => ok(await listIncidentTimeline({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.get(
    '/api/incidents/:id/updates',
    {
      config: read,
      schema: { params: idParams, response: { 200: envelope(z.array(incidentUpdateView)), ...errorResponses } },
    },
    async (request) => ok(await listIncidentUpdates(ctx, callerOf(request), request.params.id)),
  )

  app.post(
    '/api/incidents/:id/updates',
    {
      config: write,
      schema: {
        description: "Adds a timeline update; its status becomes the incident's status.",
        params: idParams,
        body: addUpdateInput,
        response: {
          201: envelope(incidentUpdateView.omit({ createdAt: true })),
          ...errorResponses,
          409: errorSchema,
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await addUpdateToIncident(ctx, callerOf(request), request.params.id, request.body))),
  )

  app.get(
    '/api/incidents/:id/comments',
    {
      config: read,
      schema: {
        description: 'Comments, internal ones included (members only); internal comments never leave the organization.',
        params: idParams,
        response: { 200: envelope(z.array(incidentCommentView)), ...errorResponses },
      },
    },
    async (request) => ok(await listIncidentComments(ctx, callerOf(request), request.params.id)),
  )

  app.post(
    '/api/incidents/:id/comments',
    {
      config: write,
      schema: {
        params: idParams,
        body: addCommentInput,
        response: { 201: envelope(incidentCommentView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await addCommentToIncident(ctx, callerOf(request), request.params.id, request.body))),
  )
}
