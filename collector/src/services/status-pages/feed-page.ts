import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { PAGE_INCIDENTS, type PublicIncident, pageIncidentValues, readPublicIncidents } from './public-incidents.ts'
import { type PublicPageAnswer, readPublicStatusPage } from './read-public.ts'

export const FEED_PAGE_SIZE = 25

export const readIncidentFeedPageInput = z.object({
  slug: z.string().min(1).max(64),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
})

export interface IncidentFeedPage {
  answer: PublicPageAnswer
  incidents: PublicIncident[]
  page: number
  lastPage: number
}

/** One page of a public page's whole incident history, newest first, for a paged feed (RFC 5005). */
export async function readIncidentFeedPage({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: z.input<typeof readIncidentFeedPageInput>
}): Promise<IncidentFeedPage> {
  const { slug, page } = readIncidentFeedPageInput.parse(input)
  const answer = await readPublicStatusPage(ctx, slug)
  const [incidents, total] = await Promise.all([
    readPublicIncidents(ctx.sql, answer.source, { offset: (page - 1) * FEED_PAGE_SIZE, limit: FEED_PAGE_SIZE }),
    answer.source.components.length
      ? ctx.sql
          .query<{ count: number }>(
            `SELECT count(*)::int AS count FROM monitoring.incidents i WHERE ${PAGE_INCIDENTS}`,
            pageIncidentValues(answer.source),
          )
          .then(({ rows }) => rows[0]?.count ?? 0)
      : 0,
  ])
  return { answer, incidents, page, lastPage: Math.max(1, Math.ceil(total / FEED_PAGE_SIZE)) }
}
