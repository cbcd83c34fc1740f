import type { Sql } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import {
  type IncidentSource,
  PAGE_INCIDENTS,
  type PublicIncident,
  pageIncidentValues,
  readPublicIncidents,
} from './public-incidents.ts'
import { type PublicPageAnswer, readPublicStatusPage } from './read-public.ts'

export const historyMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a UTC month such as 2026-11')
  .meta({ description: 'UTC month, YYYY-MM; default: the current one' })

export const readIncidentHistoryInput = z.object({ slug: z.string().min(1).max(64), month: historyMonth.optional() })

export interface IncidentHistory {
  answer: PublicPageAnswer
  month: string
  incidents: PublicIncident[]
  /** The nearest earlier and later months with incidents, so paging never walks through empty months. */
  older: string | null
  newer: string | null
}

const monthOf = (date: Date) => date.toISOString().slice(0, 7)

/**
 * A public page's incidents that started in one UTC month (at most 200), newest first, as visitors
 * read them, with the nearest months before and after that have any. 404 like the page itself.
 */
export async function readIncidentHistory({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: z.input<typeof readIncidentHistoryInput>
}): Promise<IncidentHistory> {
  const { slug, month = monthOf(new Date()) } = readIncidentHistoryInput.parse(input)
  const answer = await readPublicStatusPage(ctx, slug)
  const from = new Date(`${month}-01T00:00:00Z`)
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1))
  const [incidents, older, newer] = await Promise.all([
    readPublicIncidents(ctx.sql, answer.source, { from, to }),
    neighbour(ctx.sql, answer.source, 'max(i.detected_at)', 'i.detected_at < $4', from),
    neighbour(ctx.sql, answer.source, 'min(i.detected_at)', 'i.detected_at >= $4', to),
  ])
  return { answer, month, incidents, older, newer }
}

async function neighbour(sql: Sql, source: IncidentSource, pick: string, bound: string, at: Date) {
  if (source.components.length === 0) return null
  const { rows } = await sql.query<{ at: Date | null }>(
    `SELECT ${pick} AS at FROM monitoring.incidents i WHERE ${PAGE_INCIDENTS} AND ${bound}`,
    [...pageIncidentValues(source), at],
  )
  return rows[0]?.at ? monthOf(rows[0].at) : null
}
