import { createHash } from 'node:crypto'
import { Feed } from 'feed'
import type { PublicPageAnswer } from './read-public.ts'
import { escapeHtml } from './render-html.ts'
import type { PublicStatusPage } from './schemas.ts'

type Incident = PublicStatusPage['incidents']['active'][number]

/** Newest moment the incident changed: its last public update, resolution or start. */
const changedAt = (incident: Incident) =>
  [incident.startedAt, incident.resolvedAt, ...incident.updates.map((update) => update.createdAt)]
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1) as string

function content(incident: Incident): string {
  const facts = `<p>${escapeHtml(incident.status)} · ${escapeHtml(incident.severity)} · started ${incident.startedAt}${
    incident.resolvedAt ? ` · resolved ${incident.resolvedAt}` : ''
  }${incident.components.length ? ` · ${incident.components.map(escapeHtml).join(', ')}` : ''}</p>`
  const updates = incident.updates
    .map(
      (update) =>
        `<li><strong>${escapeHtml(update.status)}</strong> (${update.createdAt}): ${escapeHtml(update.message)}</li>`,
    )
    .join('')
  return updates ? `${facts}<ul>${updates}</ul>` : facts
}

/**
 * The page's active and recent incidents as Atom: what the page shows (public updates only, never
 * comments). Entry ids are tag-like URLs built from a hash of the incident id, stable across title
 * and status changes, so readers mark an incident read once and see it again when it is updated.
 */
export function renderIncidentFeed(
  answer: PublicPageAnswer,
  baseUrl: string,
  pagePath = `/status/${answer.page.slug}`,
): string {
  const { page } = answer
  const pageUrl = `${baseUrl}${pagePath}`
  const incidents = [...page.incidents.active, ...page.incidents.recent]
  const updated = incidents.map(changedAt).sort().at(-1) ?? page.generatedAt
  const feed = new Feed({
    // The feed's own title and subtitle are plain text the library escapes; entry titles are HTML.
    title: `${page.name} incidents`,
    description: page.description,
    id: pageUrl,
    link: pageUrl,
    feedLinks: { atom: `${pageUrl}/feed.atom` },
    updated: new Date(updated),
    copyright: '',
    generator: 'Guard',
  })
  for (const incident of incidents) {
    const key = createHash('sha256')
      .update(answer.incidentIds.get(incident) ?? `${incident.startedAt}|${incident.title}`)
      .digest('base64url')
      .slice(0, 22)
    feed.addItem({
      title: `${escapeHtml(incident.title)}${incident.resolvedAt ? ' (resolved)' : ` (${escapeHtml(incident.status)})`}`,
      id: `${pageUrl}#incident-${key}`,
      link: pageUrl,
      date: new Date(changedAt(incident)),
      published: new Date(incident.startedAt),
      content: content(incident),
    })
  }
  return feed.atom1()
}
