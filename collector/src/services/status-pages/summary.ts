import { z } from 'zod'
import { uptime30d } from './badge.ts'
import { componentStatus, overallStatus, type PublicStatusPage } from './schemas.ts'

/** The small answer other sites embed (a widget, a footer dot): no history, no series. */
export const statusPageSummary = z.object({
  name: z.string(),
  url: z.string().meta({ description: 'path of the HTML page on this server' }),
  status: overallStatus,
  updatedAt: z.string(),
  components: z.array(z.object({ name: z.string(), status: componentStatus, uptime30d: z.number().nullable() })),
  activeIncidents: z.array(
    z.object({ title: z.string(), status: z.string(), severity: z.string(), startedAt: z.string() }),
  ),
  maintenance: z.array(
    z.object({
      title: z.string(),
      status: z.enum(['ongoing', 'upcoming']),
      startsAt: z.string(),
      endsAt: z.string(),
    }),
  ),
})
export type StatusPageSummary = z.infer<typeof statusPageSummary>

export const summarizeStatusPage = (page: PublicStatusPage): StatusPageSummary => ({
  name: page.name,
  url: `/status/${page.slug}`,
  status: page.status,
  updatedAt: page.generatedAt,
  components: page.components.map((component) => ({
    name: component.name,
    status: component.status,
    uptime30d: uptime30d(component),
  })),
  activeIncidents: page.incidents.active.map(({ title, status, severity, startedAt }) => ({
    title,
    status,
    severity,
    startedAt,
  })),
  maintenance: page.maintenance.map(({ title, status, startsAt, endsAt }) => ({ title, status, startsAt, endsAt })),
})
