import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { hasTags } from '../tags/match.ts'
import { tagQuery } from '../tags/schemas.ts'
import { monthBounds } from './arithmetic.ts'
import { SLO_SELECT, type SloRow } from './find.ts'
import { statusFrom, subjectsMinutes } from './status.ts'

const currentMonth = () => new Date().toISOString().slice(0, 7)

export const sloReportQuery = z.object({
  organizationId: z.string().max(64).optional(),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM')
    .optional()
    .describe('The calendar month (UTC), YYYY-MM; the current one by default'),
  tag: tagQuery.describe("Only SLOs whose monitor carries every tag named (a group's SLO has no tags)"),
  group: z.string().max(64).optional().describe('Only SLOs of this group or of monitors in it'),
  format: z.enum(['json', 'csv', 'html']).optional(),
})
export type SloReportQuery = z.input<typeof sloReportQuery>

export const sloReportRow = z.object({
  id: z.string(),
  name: z.string(),
  subjectKind: z.enum(['monitor', 'group']),
  subjectName: z.string(),
  objective: z.number(),
  sli: z.number().nullable(),
  met: z.boolean().nullable().describe('Whether the SLI reached the objective; null without an eligible minute'),
  goodMinutes: z.number().int(),
  badMinutes: z.number().int(),
  budgetMinutes: z.number(),
  remainingMinutes: z.number(),
  remainingPercent: z.number(),
})
export const sloReport = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  slos: z.array(sloReportRow),
  totals: z.object({ slos: z.number().int(), met: z.number().int(), missed: z.number().int() }),
})
export type SloReport = z.infer<typeof sloReport>

/**
 * Every SLO of the organization judged over one calendar month, whatever its own window: the
 * month's budget, the bad minutes in it and whether the objective was met (so far, for this month).
 */
export async function reportSlos({
  ctx,
  caller,
  input,
  now = Date.now(),
}: {
  ctx: CollectorContext
  caller: Caller
  input: SloReportQuery
  now?: number
}): Promise<SloReport> {
  const query = sloReportQuery.parse(input)
  const organizationId = organizationScope(caller, query.organizationId)
  const month = query.month ?? currentMonth()
  const window = monthBounds(month)
  const { rows } = await ctx.sql.query<SloRow & { tags: string[] | null; member_group: string | null }>(
    `SELECT q.*, mm.tags, mm.group_id AS member_group FROM (${SLO_SELECT} WHERE s.organization_id = $1) q
       LEFT JOIN monitoring.monitors mm ON mm.id = q.monitor_id
      ORDER BY q.name, q.id`,
    [organizationId],
  )
  const chosen = rows.filter(
    (row) =>
      (query.tag.length === 0 || (row.monitor_id !== null && hasTags(row.tags ?? [], query.tag))) &&
      (query.group === undefined || row.group_id === query.group || row.member_group === query.group),
  )
  const minutes = await subjectsMinutes(ctx, chosen, window, now)
  const slos = chosen.map((row) => {
    const status = statusFrom(minutes.get(row.id)!, Number(row.objective), window, Math.min(now, window.to))
    return {
      id: row.id,
      name: row.name,
      subjectKind: row.monitor_id ? ('monitor' as const) : ('group' as const),
      subjectName: row.subject_name ?? '',
      objective: Number(row.objective),
      sli: status.sli,
      met: status.sli === null ? null : status.sli >= Number(row.objective),
      goodMinutes: status.goodMinutes,
      badMinutes: status.badMinutes,
      budgetMinutes: status.budgetMinutes,
      remainingMinutes: status.remainingMinutes,
      remainingPercent: status.remainingPercent,
    }
  })
  return {
    month,
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    slos,
    totals: {
      slos: slos.length,
      met: slos.filter((slo) => slo.met === true).length,
      missed: slos.filter((slo) => slo.met === false).length,
    },
  }
}
