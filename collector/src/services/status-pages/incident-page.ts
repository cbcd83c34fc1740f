import { notFound } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { type PublicIncident, readPublicIncidents } from './public-incidents.ts'
import { type PublicPageAnswer, readPublicStatusPage } from './read-public.ts'

export const incidentKeyString = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, 'must be an incident key from the page')
  .meta({ description: 'the `key` of an incident in the public answer' })

export const readPublicIncidentInput = z.object({ slug: z.string().min(1).max(64), key: incidentKeyString })

/**
 * One incident of a public page at its permanent address, with its whole public timeline. Another
 * page's or organization's incident, or a draft on a page holding drafts, is 404 like an unknown one.
 */
export async function readPublicIncident({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: z.input<typeof readPublicIncidentInput>
}): Promise<{ answer: PublicPageAnswer; incident: PublicIncident }> {
  const { slug, key } = readPublicIncidentInput.parse(input)
  const answer = await readPublicStatusPage(ctx, slug)
  const incidents = await readPublicIncidents(ctx.sql, answer.source, { key })
  if (!incidents[0]) throw notFound('Incident')
  return { answer, incident: incidents[0] }
}
