import type { IncidentHistory } from './history.ts'
import type { PageText } from './i18n/page-text.ts'
import type { PublicIncident } from './public-incidents.ts'
import { escapeHtml, header, htmlStart, incident } from './render-html.ts'
import type { PublicStatusPage } from './schemas.ts'

const pageLinks = (path: string, text: PageText) =>
  `<nav aria-label="${text.html('link.history')}"><ul class="links"><li><a href="${path || '/'}">${text.html('link.current')}</a></li><li><a href="${path}/history">${text.html('link.history')}</a></li><li><a href="${path}/feed.atom">${text.html('link.feed')}</a></li></ul></nav>`

/**
 * The shell the history and incident pages share with the status page: its look, no scripts.
 * `pagePath` is where the page lives: `/status/{slug}`, or `` on its custom host.
 */
function document(
  page: PublicStatusPage,
  pagePath: string,
  title: string,
  assetBase: string,
  body: string,
  text: PageText,
): string {
  const path = escapeHtml(pagePath)
  const scheme = page.theme === 'auto' ? 'light dark' : page.theme
  return `<!doctype html>
${htmlStart(text, page.theme)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assetBase}/status-page.css">
<link rel="alternate" type="application/atom+xml" title="${text.html('page.feedTitle', { name: page.name })}" href="${path}/feed.atom">
</head>
<body>
<main>
${header(page, text)}
${pageLinks(path, text)}
${body}
</main>
</body>
</html>
`
}

/** One UTC month of a page's incidents, with links to the nearest months that have any. */
export function renderHistoryHtml(
  history: Omit<IncidentHistory, 'answer'> & { answer: Pick<IncidentHistory['answer'], 'page'> },
  assetBase: string,
  pagePath: string,
  text: PageText,
): string {
  const { page } = history.answer
  const label = text.month(history.month)
  const month = (target: string, id: 'history.newer' | 'history.older', rel: string) =>
    `<li><a rel="${rel}" href="${escapeHtml(pagePath)}/history?month=${escapeHtml(target)}${text.locale === page.locale ? '' : `&amp;lang=${text.locale}`}">${text.html(id, { month: text.month(target) })}</a></li>`
  const pager = [
    history.newer ? month(history.newer, 'history.newer', 'next') : '',
    history.older ? month(history.older, 'history.older', 'prev') : '',
  ].join('')
  const items = history.incidents.length
    ? history.incidents.map((item) => incident(item, page.timezone, pagePath, text)).join('')
    : `<p>${text.html('history.none', { month: label })}</p>`
  return document(
    page,
    pagePath,
    text.text('history.title', { name: page.name }),
    assetBase,
    `<section aria-labelledby="month"><h2 id="month">${escapeHtml(label)}</h2>${items}</section>
${pager ? `<nav aria-label="${text.html('history.months')}"><ul class="links">${pager}</ul></nav>` : ''}
<footer><p>${text.html('history.utc')}</p></footer>`,
    text,
  )
}

/** An incident at its permanent address: its facts and its whole public timeline. */
export function renderIncidentPageHtml(
  page: PublicStatusPage,
  item: PublicIncident,
  assetBase: string,
  pagePath: string,
  text: PageText,
): string {
  return document(
    page,
    pagePath,
    text.text('incident.pageTitle', { title: item.title, name: page.name }),
    assetBase,
    `<section aria-labelledby="incident"><h2 id="incident">${text.html('incident.heading')}</h2>${incident(item, page.timezone, null, text)}</section>`,
    text,
  )
}
