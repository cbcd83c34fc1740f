import type { EventOf } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import type { EventHandlers, HandlerScope } from '../../../ingest/consume-events.ts'
import { readComponents } from '../find.ts'
import type { Locale } from '../i18n/locales.ts'
import { type AutomaticIncidents, incidentKey, readPublicIncidents } from '../public-incidents.ts'
import { queueForSubscribers } from './queue.ts'

export const STATUS_PAGE_SUBSCRIBERS = 'status-page-subscribers'

type IncidentEvent = EventOf<'incident.opened' | 'incident.updated' | 'incident.resolved'>

/**
 * Tells the subscribers of every public page showing the incident: openings (reopenings too),
 * what people post, resolutions; never the automatic updates of a repeated failure, nor an update
 * whose author chose not to. The words are the page's own (its public incident reader), so a
 * subscriber reads what the page shows, and an incident the page does not show is not sent. A draft
 * published later reaches only the pages that held it (the others told their subscribers at once),
 * as an opening, or as a resolution when it is over by then.
 */
async function tellSubscribers(ctx: CollectorContext, event: IncidentEvent, scope: HandlerScope) {
  const { tx } = scope
  if (event.data.subscribers === false) return
  if (event.type === 'incident.updated' && event.data.automatic && !event.data.reopened) return
  const published = event.data.published === true
  if (published && event.data.cause === 'manual') return
  const { rows: pages } = await tx.query<{
    id: string
    organization_id: string
    name: string
    slug: string
    automatic_incidents: AutomaticIncidents
    locale: Locale
  }>(
    `SELECT p.id, p.organization_id, p.name, p.slug, p.automatic_incidents, p.locale FROM monitoring.status_pages p
      WHERE p.organization_id = $1 AND p.is_public
        AND ($2::boolean IS FALSE OR p.automatic_incidents = 'draft')
        AND EXISTS (SELECT 1 FROM monitoring.status_page_subscribers s WHERE s.page_id = p.id AND s.confirmed_at IS NOT NULL)`,
    [event.organizationId, published],
  )
  if (pages.length === 0) return
  const { rows } = await tx.query<{ subjects: string[] }>(
    `SELECT array_remove(ARRAY[monitor_id], NULL) || affected_domains || affected_services || affected_devices AS subjects
       FROM monitoring.incidents WHERE id = $1 AND organization_id = $2`,
    [event.data.incidentId, event.organizationId],
  )
  const subjects = new Set(rows[0]?.subjects ?? [])
  const type = published
    ? event.data.status === 'resolved'
      ? 'incident.resolved'
      : 'incident.opened'
    : event.type === 'incident.updated' && event.data.reopened
      ? 'incident.opened'
      : event.type
  let queued = 0
  for (const page of pages) {
    const components = (await readComponents(tx, page)).filter((component) => subjects.has(component.subjectId))
    if (components.length === 0) continue
    const source = {
      organizationId: page.organization_id,
      components,
      automaticIncidents: page.automatic_incidents,
      locale: page.locale,
    }
    const [incident] = await readPublicIncidents(tx, source, { key: incidentKey(event.data.incidentId) })
    if (!incident) continue
    queued += await queueForSubscribers(
      tx,
      ctx.env,
      { id: page.id, organizationId: page.organization_id },
      components.map((component) => component.id),
      event.id,
      {
        type,
        pageName: page.name,
        slug: page.slug,
        title: incident.title,
        text: incident.updates[0]?.message ?? '',
        status: incident.status,
        occurredAt: event.occurredAt,
        components: incident.components,
        locale: page.locale,
      },
    )
  }
  if (queued > 0) scope.afterCommit.push(() => void ctx.wake.dispatchEvent(new Event('deliveries')))
}

export function subscriberHandlers(ctx: CollectorContext): EventHandlers {
  return {
    'incident.opened': (event, scope) => tellSubscribers(ctx, event, scope),
    'incident.updated': (event, scope) => tellSubscribers(ctx, event, scope),
    'incident.resolved': (event, scope) => tellSubscribers(ctx, event, scope),
  }
}
