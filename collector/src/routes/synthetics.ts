import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { getArtifact, getArtifactInput } from '../services/artifacts/get-artifact.ts'
import { groupQuery } from '../services/groups/filter.ts'
import { createSynthetic } from '../services/synthetics/create.ts'
import { deleteSynthetic } from '../services/synthetics/delete.ts'
import { getSynthetic } from '../services/synthetics/get.ts'
import { listSynthetics } from '../services/synthetics/list.ts'
import { listSyntheticRuns } from '../services/synthetics/list-runs.ts'
import { runSynthetic } from '../services/synthetics/run.ts'
import {
  createSyntheticInput,
  runSyntheticInput,
  syntheticRunView,
  syntheticView,
  updateSyntheticInput,
} from '../services/synthetics/schemas.ts'
import { updateSynthetic } from '../services/synthetics/update.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'

const read = { access: { permission: 'synthetics:read' as const } }
const write = { access: { permission: 'synthetics:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
const runSyntheticQuery = z.object({
  location: runSyntheticInput.shape.location,
  store: z.stringbool().default(false),
})

/** Synthetic checks (README "Synthetic checks"): multi-step API flows and browser scripts run by probes. */
export function syntheticRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/synthetics',
    {
      config: read,
      schema: {
        querystring: organizationQuery.extend({ tag: tagQuery, ...groupQuery }),
        response: { 200: envelope(z.array(syntheticView)), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await listSynthetics({
          ctx,
          caller: callerOf(request),
          input: { ...request.query, tags: request.query.tag },
        }),
      ),
  )

  app.post(
    '/api/synthetics',
    {
      config: write,
      schema: {
        description:
          'Creates a multi-step API check: ordered HTTP steps with assertions, extractions into `{{variables}}` and `{{secrets.NAME}}` references to write-only secrets.',
        querystring: organizationQuery,
        body: createSyntheticInput,
        response: { 201: envelope(syntheticView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        ok(
          await createSynthetic({
            ctx,
            caller: callerOf(request),
            input: { ...request.body, organizationId: request.query.organizationId },
          }),
        ),
      ),
  )

  app.get(
    '/api/synthetics/:id',
    { config: read, schema: { params: idParams, response: { 200: envelope(syntheticView), ...errorResponses } } },
    async (request) => ok(await getSynthetic({ ctx, caller: callerOf(request), input: { id: request.params.id } })),
  )

  app.put(
    '/api/synthetics/:id',
    {
      config: write,
      schema: {
        description:
          'Changes the fields given; `steps` replace the stored ones, `secrets` are merged by name (null removes one).',
        params: idParams,
        body: updateSyntheticInput,
        response: { 200: envelope(syntheticView), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      await updateSynthetic({ ctx, caller, input: { ...request.body, id: request.params.id } })
      return ok(await getSynthetic({ ctx, caller, input: { id: request.params.id } }))
    },
  )

  app.delete(
    '/api/synthetics/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await deleteSynthetic({ ctx, caller: callerOf(request), input: { id: request.params.id } })
      return ok({ id: request.params.id, deleted: true as const })
    },
  )

  app.post(
    '/api/synthetics/:id/run',
    {
      config: { ...write, bulk: true },
      schema: {
        description:
          'Runs the check now on a probe of `location` (default any) and returns the run with its steps; it joins the last runs. With `store=true` the result is also recorded like a scheduled one. Counts as a bulk operation.',
        params: idParams,
        querystring: runSyntheticQuery,
        response: { 200: envelope(syntheticRunView), ...errorResponses, 503: errorSchema, 504: errorSchema },
      },
    },
    async (request) =>
      ok(
        await runSynthetic({
          ctx,
          caller: callerOf(request),
          input: { ...request.query, id: request.params.id },
        }),
      ),
  )

  app.get(
    '/api/synthetics/:id/runs',
    {
      config: read,
      schema: {
        description: 'The last runs, newest first, each with its steps: outcome, status, timing phases.',
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: envelope(z.array(syntheticRunView)), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await listSyntheticRuns({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, limit: request.query.limit },
        }),
      ),
  )

  app.get(
    '/api/synthetics/:id/runs/:runId/artifacts/:name',
    {
      config: read,
      schema: {
        description:
          "A browser run's stored screenshot (`screenshot.png`, image/png) or Playwright trace (`trace.zip`, open with `npx playwright show-trace`). Kept GUARD_ARTIFACT_RETENTION_DAYS days.",
        params: getArtifactInput,
        produces: ['image/png', 'application/zip'],
        response: { 200: z.any().describe('the file'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const artifact = await getArtifact({ ctx, caller: callerOf(request), input: request.params })
      return reply
        .type(artifact.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .header('Content-Disposition', `inline; filename="${request.params.name}"`)
        .send(Buffer.from(artifact.data))
    },
  )
}
