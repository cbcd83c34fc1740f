import type { IncidentHistory } from './history.ts'
import type { PublicIncident } from './public-incidents.ts'
import { escapeHtml, header, incident } from './render-html.ts'
import type { PublicStatusPage } from './schemas.ts'

/** Every visitor-facing string of the history and incident pages. */
const TEXT = {
  historyTitle: (name: string) => `${name} incident history`,
  incidentTitle: (title: string, name: string) => `${title} · ${name} status`,
  history: 'Incident history',
  incident: 'Incident',
  months: 'Months',
  older: (month: string) => `Older: ${month}`,
  newer: (month: string) => `Newer: ${month}`,
  none: (month: string) => `No incidents in ${month}.`,
  current: 'Current status',
  feed: 'Incident feed (Atom)',
  utc: 'Months are UTC months.',
}

const monthLabel = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  )

const pageLinks = (path: string) =>
  `<nav aria-label="${TEXT.history}"><ul class="links"><li><a href="${path || '/'}">${TEXT.current}</a></li><li><a href="${path}/history">${TEXT.history}</a></li><li><a href="${path}/feed.atom">${TEXT.feed}</a></li></ul></nav>`

/**
 * The shell the history and incident pages share with the status page: its look, no scripts.
 * `pagePath` is where the page lives: `/status/{slug}`, or `` on its custom host.
 */
function document(page: PublicStatusPage, pagePath: string, title: string, assetBase: string, body: string): string {
  const path = escapeHtml(pagePath)
  const scheme = page.theme === 'auto' ? 'light dark' : page.theme
  return `<!doctype html>
<html lang="en"${page.theme === 'auto' ? '' : ` data-theme="${page.theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assetBase}/status-page.css">
<link rel="alternate" type="application/atom+xml" title="${escapeHtml(page.name)} incidents" href="${path}/feed.atom">
</head>
<body>
<main>
${header(page)}
${pageLinks(path)}
${body}
</main>
</body>
</html>
`
}

/** One UTC month of a page's incidents, with links to the nearest months that have any. */
export function renderHistoryHtml(
  history: IncidentHistory,
  assetBase: string,
  pagePath = `/status/${history.answer.page.slug}`,
): string {
  const { page } = history.answer
  const label = monthLabel(history.month)
  const month = (target: string, text: string, rel: string) =>
    `<li><a rel="${rel}" href="${escapeHtml(pagePath)}/history?month=${escapeHtml(target)}">${escapeHtml(text)}</a></li>`
  const pager = [
    history.newer ? month(history.newer, TEXT.newer(monthLabel(history.newer)), 'next') : '',
    history.older ? month(history.older, TEXT.older(monthLabel(history.older)), 'prev') : '',
  ].join('')
  const items = history.incidents.length
    ? history.incidents.map((item) => incident(item, page.timezone, pagePath)).join('')
    : `<p>${escapeHtml(TEXT.none(label))}</p>`
  return document(
    page,
    pagePath,
    TEXT.historyTitle(page.name),
    assetBase,
    `<section aria-labelledby="month"><h2 id="month">${escapeHtml(label)}</h2>${items}</section>
${pager ? `<nav aria-label="${TEXT.months}"><ul class="links">${pager}</ul></nav>` : ''}
<footer><p>${TEXT.utc}</p></footer>`,
  )
}

/** An incident at its permanent address: its facts and its whole public timeline. */
export function renderIncidentPageHtml(
  page: PublicStatusPage,
  item: PublicIncident,
  assetBase: string,
  pagePath = `/status/${page.slug}`,
): string {
  return document(
    page,
    pagePath,
    TEXT.incidentTitle(item.title, page.name),
    assetBase,
    `<section aria-labelledby="incident"><h2 id="incident">${TEXT.incident}</h2>${incident(item, page.timezone, null)}</section>`,
  )
}
