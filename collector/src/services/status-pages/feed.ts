import { Feed } from 'feed'
import type { IncidentFeedPage } from './feed-page.ts'
import type { PageText } from './i18n/page-text.ts'
import type { PublicIncident } from './public-incidents.ts'
import { escapeHtml, incidentFacts } from './render-html.ts'

/** Newest moment the incident changed: its last public update, resolution or start. */
const changedAt = (incident: PublicIncident) =>
  [incident.startedAt, incident.resolvedAt, ...incident.updates.map((update) => update.createdAt)]
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1) as string

/** Times in the feed stay ISO 8601 in UTC: a reader shows them in its own zone, not the page's. */
function content(incident: PublicIncident, text: PageText): string {
  const facts = `<p>${incidentFacts(incident, text, escapeHtml)}</p>`
  const updates = incident.updates
    .map(
      (update) =>
        `<li><strong>${escapeHtml(text.text('incident.status', { status: update.status }))}</strong> (${update.createdAt}): ${escapeHtml(update.message)}</li>`,
    )
    .join('')
  return updates ? `${facts}<ul>${updates}</ul>` : facts
}

/**
 * The page's whole incident history as a paged Atom feed (RFC 5005: first, previous, next, last),
 * newest first, with what the page shows (public wording, never comments). Entry ids are tag-like
 * URLs built from the incident's permanent key, stable across title and status changes, so readers
 * mark an incident read once and see it again when it is updated; entries link to its own page.
 */
export function renderIncidentFeed(
  feedPage: IncidentFeedPage,
  baseUrl: string,
  pagePath: string,
  text: PageText,
): string {
  const { page } = feedPage.answer
  const pageUrl = `${baseUrl}${pagePath}`
  const feedUrl = `${pageUrl}/feed.atom`
  const pageOf = (number: number) => (number === 1 ? feedUrl : `${feedUrl}?page=${number}`)
  const updated = feedPage.incidents.map(changedAt).sort().at(-1) ?? page.generatedAt
  const feed = new Feed({
    // The feed's own title and subtitle are plain text the library escapes; entry titles are HTML.
    title: text.text('page.feedTitle', { name: page.name }),
    description: page.description,
    id: pageUrl,
    link: pageUrl,
    feedLinks: { atom: pageOf(feedPage.page) },
    updated: new Date(updated),
    copyright: '',
    generator: 'Guard',
  })
  for (const incident of feedPage.incidents) {
    feed.addItem({
      title: `${escapeHtml(incident.title)} (${escapeHtml(text.text('incident.status', { status: incident.resolvedAt ? 'resolved' : incident.status }))})`,
      id: `${pageUrl}#incident-${incident.key}`,
      link: `${pageUrl}/incidents/${incident.key}`,
      date: new Date(changedAt(incident)),
      published: new Date(incident.startedAt),
      content: content(incident, text),
    })
  }
  const paging = [
    ['first', 1],
    ...(feedPage.page > 1 ? [['previous', Math.min(feedPage.page - 1, feedPage.lastPage)] as const] : []),
    ...(feedPage.page < feedPage.lastPage ? [['next', feedPage.page + 1] as const] : []),
    ['last', feedPage.lastPage],
  ] as const
  const links = paging.map(([rel, number]) => `<link rel="${rel}" href="${escapeHtml(pageOf(number))}"/>`).join('')
  return feed.atom1().replace(/(<link rel="self"[^>]*\/>)/, `$1${links}`)
}
