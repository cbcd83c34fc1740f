import type { CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { countActiveIncidents } from '../dashboard/stats.ts'
import { listIncidents } from '../incidents/list.ts'
import type { Audience } from './audience.ts'
import { readPublicView } from './public-view.ts'
import { type AssistantIncident, type IncidentsInput, type IncidentsResult, incidentsInput } from './schemas.ts'

const newestFirst = (a: AssistantIncident, b: AssistantIncident) => b.detectedAt.localeCompare(a.detectedAt)

/**
 * Incidents of the audience, newest first, filtered by status and severity; `summary` counts the
 * unresolved ones whatever the filters. Public: the incidents the public status pages show.
 */
export async function listAssistantIncidents({
  ctx,
  audience,
  input,
}: {
  ctx: CollectorContext
  audience: Audience
  input: IncidentsInput
}): Promise<IncidentsResult> {
  const { status, severity, limit } = incidentsInput.parse(input)
  if (audience.kind === 'public') {
    const view = await readPublicView(ctx, audience.organizationId)
    const matching = view.incidents
      .filter((incident) => (!status || incident.status === status) && (!severity || incident.severity === severity))
      .map((incident) => ({
        id: null,
        organizationId: incident.organizationId,
        title: incident.title,
        status: incident.status,
        severity: incident.severity,
        impact: incident.impact,
        detectedAt: incident.startedAt,
        resolvedAt: incident.resolvedAt,
      }))
      .sort(newestFirst)
    const open = view.incidents.filter((incident) => incident.active)
    return {
      incidents: matching.slice(0, limit),
      total: matching.length,
      summary: { open: open.length, critical: open.filter((incident) => incident.severity === 'critical').length },
    }
  }
  const parts = await Promise.all(
    audience.callers.map(async (caller) => {
      requirePermission(caller, 'incidents:read')
      const query = { organizationId: caller.organizationId, limit, ...(status ? { status } : {}) }
      const [page, active] = await Promise.all([
        listIncidents(ctx, caller, severity ? { ...query, severity } : query),
        countActiveIncidents(ctx, caller.organizationId),
      ])
      return { page, active }
    }),
  )
  const incidents = parts
    .flatMap(({ page }) =>
      page.data.map((incident) => ({
        id: incident.id,
        organizationId: incident.organizationId,
        title: incident.title,
        status: incident.status,
        severity: incident.severity,
        impact: incident.impact,
        detectedAt: incident.detectedAt,
        resolvedAt: incident.resolvedAt,
      })),
    )
    .sort(newestFirst)
  return {
    incidents: incidents.slice(0, limit),
    total: parts.reduce((sum, { page }) => sum + page.pagination.total, 0),
    summary: {
      open: parts.reduce((sum, { active }) => sum + active.active, 0),
      critical: parts.reduce((sum, { active }) => sum + active.critical, 0),
    },
  }
}
