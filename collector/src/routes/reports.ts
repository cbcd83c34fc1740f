import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { deviceReport, deviceReportRow, reportDevices } from '../services/reports/devices.ts'
import { domainReport, domainReportRow, reportDomains, reportQuery } from '../services/reports/domains.ts'
import { heartbeatReport, heartbeatReportRow, reportHeartbeats } from '../services/reports/heartbeats.ts'
import { incidentReport, incidentReportRow, reportIncidents } from '../services/reports/incidents.ts'
import { envelope, errorResponses, ok } from './common.ts'
import { sendCsv, wantsCsv } from './csv.ts'

const read = { access: { permission: 'reports:read' as const } }

export function reportRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/reports/domains',
    {
      config: read,
      schema: {
        description:
          'Per domain over the range: checks, failures, uptime, average and p95 response time, incidents, downtime, and per probe location; totals. `format=csv` or `Accept: text/csv` answers one CSV row per domain (without the per-location figures).',
        querystring: reportQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: z.union([envelope(domainReport), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const report = await reportDomains(ctx, callerOf(request), request.query)
      if (!wantsCsv(request, request.query.format)) return ok(report)
      return sendCsv(
        reply,
        `domains-report-${report.range}`,
        Object.keys(domainReportRow.shape),
        report.domains.map(({ locations: _locations, ...row }) => row),
      )
    },
  )

  app.get(
    '/api/reports/heartbeats',
    {
      config: read,
      schema: {
        description:
          'Per heartbeat monitor over the range: runs (ended runs and missed windows), failures, uptime, average and p95 run duration (runs with a start ping), incidents, downtime; totals. `format=csv` or `Accept: text/csv` answers one CSV row per heartbeat.',
        querystring: reportQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: z.union([envelope(heartbeatReport), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const report = await reportHeartbeats(ctx, callerOf(request), request.query)
      if (!wantsCsv(request, request.query.format)) return ok(report)
      return sendCsv(
        reply,
        `heartbeats-report-${report.range}`,
        Object.keys(heartbeatReportRow.shape),
        report.heartbeats,
      )
    },
  )

  app.get(
    '/api/reports/incidents',
    {
      config: read,
      schema: {
        description:
          'Incidents detected in the range: count by severity, MTTA, MTTR, the longest and the list. `format=csv` or `Accept: text/csv` answers one CSV row per incident.',
        querystring: reportQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: z.union([envelope(incidentReport), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const report = await reportIncidents(ctx, callerOf(request), request.query)
      if (!wantsCsv(request, request.query.format)) return ok(report)
      return sendCsv(reply, `incidents-report-${report.range}`, Object.keys(incidentReportRow.shape), report.incidents)
    },
  )

  app.get(
    '/api/reports/devices',
    {
      config: read,
      schema: {
        description:
          'Per device over the range: availability (from its offline periods), offline time, heartbeats, and average and peak CPU, memory and disk usage; totals. `format=csv` or `Accept: text/csv` answers one CSV row per device (empty cells for no data).',
        querystring: reportQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: z.union([envelope(deviceReport), z.string()]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const report = await reportDevices(ctx, callerOf(request), request.query)
      if (!wantsCsv(request, request.query.format)) return ok(report)
      return sendCsv(reply, `devices-report-${report.range}`, Object.keys(deviceReportRow.shape), report.devices)
    },
  )
}
