import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createSlo } from '../services/slos/create.ts'
import { deleteSlo } from '../services/slos/delete.ts'
import { getSlo } from '../services/slos/get.ts'
import { listSlos } from '../services/slos/list.ts'
import { reportSlos, sloReport, sloReportQuery, sloReportRow } from '../services/slos/report.ts'
import { renderSloReportHtml } from '../services/slos/report-html.ts'
import { createSloInput, sloDetail, sloView, updateSloInput } from '../services/slos/schemas.ts'
import { updateSlo } from '../services/slos/update.ts'
import { deleted, envelope, errorResponses, idParams, ok } from './common.ts'
import { sendCsv, wantsCsv } from './csv.ts'

const read = { access: { permission: 'reports:read' as const } }
// Budgets move with ingested results, which invalidate the entry; the burn job's `burning`, within the TTL.
const cachedRead = { ...read, readCache: true }
const write = { access: { permission: 'reports:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })

/** SLOs and their error budgets (README "SLOs and error budgets"). */
export function sloRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/slos',
    {
      config: cachedRead,
      schema: { querystring: organizationQuery, response: { 200: envelope(z.array(sloView)), ...errorResponses } },
    },
    async (request) => ok(await listSlos({ ctx, caller: callerOf(request), input: request.query })),
  )
  app.post(
    '/api/slos',
    {
      config: write,
      schema: {
        description:
          'An objective over a monitor (domain or service) or a group: e.g. 99.9 % of minutes good over a rolling 30 days or the calendar month. A minute is bad when the subject was down by the quorum rule incidents use; maintenance is left out. Burn alerts default to 2 % of the budget in 1 h (5 min short window) and 5 % in 6 h (30 min).',
        querystring: organizationQuery,
        body: createSloInput,
        response: { 201: envelope(sloView), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await createSlo({ ctx, caller: callerOf(request), input: { ...request.body, ...request.query } }))),
  )
  app.get(
    '/api/slos/:id',
    {
      config: cachedRead,
      schema: {
        description:
          'The SLO with its budget now: good and bad minutes, SLI, budget left in minutes and per cent, burn rates over 1 h, 6 h, 24 h and 3 d (1 spends the budget exactly by the end of the window) and the remaining budget at the end of each day.',
        params: idParams,
        response: { 200: envelope(sloDetail), ...errorResponses },
      },
    },
    async (request) => ok(await getSlo({ ctx, caller: callerOf(request), input: request.params })),
  )
  app.put(
    '/api/slos/:id',
    {
      config: write,
      schema: { params: idParams, body: updateSloInput, response: { 200: envelope(sloView), ...errorResponses } },
    },
    async (request) =>
      ok(await updateSlo({ ctx, caller: callerOf(request), input: { ...request.body, id: request.params.id } })),
  )
  app.delete(
    '/api/slos/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => ok(await deleteSlo({ ctx, caller: callerOf(request), input: request.params })),
  )
  app.get(
    '/api/reports/slos',
    {
      config: { ...read, readCache: 'negotiated' as const },
      schema: {
        description:
          'Every SLO judged over one calendar month (UTC): SLI, bad minutes, budget and what is left, met or missed; `tag` and `group` narrow it. `format=csv` (or `Accept: text/csv`) answers one CSV row per SLO, `format=html` a page that prints cleanly to PDF.',
        querystring: sloReportQuery,
        produces: ['application/json', 'text/csv', 'text/html'],
        response: { 200: z.union([envelope(sloReport), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const report = await reportSlos({ ctx, caller: callerOf(request), input: request.query })
      if (request.query.format === 'html')
        return reply.type('text/html; charset=utf-8').send(renderSloReportHtml(report))
      if (!wantsCsv(request, request.query.format)) return ok(report)
      return sendCsv(reply, `slo-report-${report.month}`, Object.keys(sloReportRow.shape), report.slos)
    },
  )
}
