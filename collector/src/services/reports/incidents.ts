import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { tagCondition } from '../tags/match.ts'
import { REPORT_RANGES, type ReportQuery, reportQuery } from './domains.ts'

export const incidentReportRow = z.object({
  id: z.string(),
  title: z.string(),
  severity: z.string(),
  status: z.string(),
  detectedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  durationSeconds: z.number().int().meta({ description: 'to resolution, or to now while open' }),
})
const seconds = z.number().nullable().meta({ description: 'seconds; null without such incidents' })
export const incidentReport = z.object({
  range: z.enum(['24h', '7d', '30d']),
  from: z.string(),
  to: z.string(),
  total: z.number().int(),
  bySeverity: z.object({
    low: z.number().int(),
    medium: z.number().int(),
    high: z.number().int(),
    critical: z.number().int(),
  }),
  mtta: seconds.meta({ description: 'mean time to acknowledge, seconds' }),
  mttr: seconds.meta({ description: 'mean time to resolve (resolved incidents), seconds' }),
  longest: incidentReportRow.nullable(),
  incidents: z.array(incidentReportRow),
})
export type IncidentReport = z.infer<typeof incidentReport>

interface Row {
  id: string
  title: string
  severity: string
  status: string
  detected_at: Date
  acknowledged_at: Date | null
  resolved_at: Date | null
}

/** Incidents detected within the range: counts by severity, MTTA, MTTR, the longest, and the list. */
export async function reportIncidents(
  ctx: CollectorContext,
  caller: Caller,
  query: ReportQuery,
): Promise<IncidentReport> {
  const { range, organizationId: requested, tag } = reportQuery.parse(query)
  const organizationId = organizationScope(caller, requested)
  const monitorsTagged = tagCondition('tags', tag, 3)
  const devicesTagged = tagCondition('tags', tag, 3 + monitorsTagged.parameters.length)
  // With tags, the incidents of the tagged monitors and devices only; manual incidents have neither.
  const ofTagged =
    tag.length === 0
      ? 'TRUE'
      : `monitor_id IN (SELECT id FROM monitoring.monitors WHERE organization_id = $1 AND ${monitorsTagged.sql}
                        UNION ALL
                        SELECT id FROM monitoring.devices WHERE organization_id = $1 AND ${devicesTagged.sql})`
  const to = new Date()
  const from = new Date(to.getTime() - REPORT_RANGES[range] * 1000)
  const { rows } = await ctx.sql.query<Row>(
    `SELECT id, title, severity, status, detected_at, acknowledged_at, resolved_at FROM monitoring.incidents
      WHERE organization_id = $1 AND detected_at >= $2 AND ${ofTagged} ORDER BY detected_at DESC, id LIMIT 10000`,
    [organizationId, from, ...monitorsTagged.parameters, ...devicesTagged.parameters],
  )
  const incidents = rows.map((row) => ({
    id: row.id,
    title: row.title,
    severity: row.severity,
    status: row.status,
    detectedAt: row.detected_at.toISOString(),
    acknowledgedAt: row.acknowledged_at?.toISOString() ?? null,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    durationSeconds: Math.round(((row.resolved_at ?? to).getTime() - row.detected_at.getTime()) / 1000),
  }))
  const mean = (values: number[]) =>
    values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : null
  const bySeverity = { low: 0, medium: 0, high: 0, critical: 0 }
  for (const row of rows) if (row.severity in bySeverity) bySeverity[row.severity as keyof typeof bySeverity]++
  return {
    range,
    from: from.toISOString(),
    to: to.toISOString(),
    total: rows.length,
    bySeverity,
    mtta: mean(
      rows.flatMap((row) =>
        row.acknowledged_at ? [(row.acknowledged_at.getTime() - row.detected_at.getTime()) / 1000] : [],
      ),
    ),
    mttr: mean(
      rows.flatMap((row) => (row.resolved_at ? [(row.resolved_at.getTime() - row.detected_at.getTime()) / 1000] : [])),
    ),
    longest: incidents.reduce<(typeof incidents)[number] | null>(
      (longest, incident) => (!longest || incident.durationSeconds > longest.durationSeconds ? incident : longest),
      null,
    ),
    incidents,
  }
}
