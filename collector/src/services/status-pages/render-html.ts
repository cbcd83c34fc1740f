import type { PublicStatusPage } from './schemas.ts'

type Component = PublicStatusPage['components'][number]
type Incident = PublicStatusPage['incidents']['active'][number]

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  )

const OVERALL: Record<PublicStatusPage['status'], string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  unknown: 'No data yet',
}
const STATE: Record<Component['status'], string> = {
  up: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'No data',
}

function bar(day: Component['daily'][number]): string {
  const level = day.uptime === null ? 'none' : day.uptime >= 99.9 ? 'ok' : day.uptime >= 95 ? 'warn' : 'bad'
  const text =
    day.uptime === null
      ? `${day.date}: no data`
      : `${day.date}: ${day.uptime}% up (${day.failures} of ${day.checks} checks failed)`
  return `<span class="bar ${level}" title="${escapeHtml(text)}"></span>`
}

function component(item: Component, index: number): string {
  const bars = item.daily.length
    ? `<div class="bars" role="img" aria-label="${escapeHtml(`Daily uptime of ${item.name} over 90 days`)}">${item.daily.map(bar).join('')}</div>
       <div class="legend"><span>90 days ago</span><span>${item.uptime90d === null ? 'no data' : `${item.uptime90d}% uptime`}</span><span>Today</span></div>`
    : ''
  const locations = item.locations.length
    ? `<ul class="locations">${item.locations
        .map((location) => {
          const last = location.points.at(-1)
          return `<li><span class="dot ${location.status}"></span>${escapeHtml(location.location)}: ${STATE[location.status]}${last ? `, ${Math.round(last.avg)} ms` : ''}</li>`
        })
        .join('')}</ul>
       <div class="chart" data-component="${index}" aria-hidden="true"></div>`
    : ''
  return `<li class="component">
    <div class="row"><h3>${escapeHtml(item.name)}</h3><span class="state ${item.status}">${STATE[item.status]}</span></div>
    ${bars}${locations}</li>`
}

function incident(item: Incident): string {
  const updates = item.updates
    .map(
      (update) =>
        `<li><strong>${escapeHtml(update.status)}</strong> <time datetime="${update.createdAt}">${update.createdAt.slice(0, 16).replace('T', ' ')} UTC</time><p>${escapeHtml(update.message)}</p></li>`,
    )
    .join('')
  return `<article class="incident ${escapeHtml(item.severity)}">
    <h3>${escapeHtml(item.title)}</h3>
    <p class="meta">${escapeHtml(item.status)} · ${escapeHtml(item.severity)} · started <time datetime="${item.startedAt}">${item.startedAt.slice(0, 16).replace('T', ' ')} UTC</time>${item.resolvedAt ? ` · resolved <time datetime="${item.resolvedAt}">${item.resolvedAt.slice(0, 16).replace('T', ' ')} UTC</time>` : ''}${item.components.length ? ` · ${item.components.map(escapeHtml).join(', ')}` : ''}</p>
    ${updates ? `<ol class="updates">${updates}</ol>` : ''}</article>`
}

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
const embedded = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * The public page, complete without JavaScript; the script only draws the latency charts from the
 * series embedded in the page (uPlot, served by the collector itself).
 */
export function renderStatusPageHtml(page: PublicStatusPage, assetBase: string): string {
  const series = page.components.map((item) => item.locations.map(({ location, points }) => ({ location, points })))
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(page.name)} status</title>
<link rel="stylesheet" href="${assetBase}/uplot.min.css">
<link rel="stylesheet" href="${assetBase}/status-page.css">
<link rel="alternate" type="application/json" href="/api/status-pages/${escapeHtml(page.slug)}/public">
</head>
<body>
<main>
<header>
  <h1>${escapeHtml(page.name)}</h1>
  ${page.description ? `<p class="description">${escapeHtml(page.description)}</p>` : ''}
  <p class="banner ${page.status}" role="status">${OVERALL[page.status]}</p>
</header>
${
  page.maintenance.length
    ? `<section aria-labelledby="maintenance"><h2 id="maintenance">Scheduled maintenance</h2><ul>${page.maintenance
        .map(
          (item) =>
            `<li><strong>${escapeHtml(item.title)}</strong>: <time datetime="${item.startsAt}">${item.startsAt.slice(0, 16).replace('T', ' ')}</time> to <time datetime="${item.endsAt}">${item.endsAt.slice(0, 16).replace('T', ' ')} UTC</time> (${item.components.map(escapeHtml).join(', ')})</li>`,
        )
        .join('')}</ul></section>`
    : ''
}
${
  page.incidents.active.length
    ? `<section aria-labelledby="active"><h2 id="active">Active incidents</h2>${page.incidents.active.map(incident).join('')}</section>`
    : ''
}
<section aria-labelledby="components"><h2 id="components">Components</h2>
<ul class="components">${page.components.map(component).join('')}</ul></section>
<section aria-labelledby="recent"><h2 id="recent">Past incidents</h2>
${page.incidents.recent.length ? page.incidents.recent.map(incident).join('') : '<p>No incidents in the last 14 days.</p>'}
</section>
<footer><p>Updated <time datetime="${page.generatedAt}">${page.generatedAt.slice(0, 16).replace('T', ' ')} UTC</time>. Latency is the average response time per probe location over the last 24 hours.</p></footer>
</main>
<script type="application/json" id="latency-data">${embedded(series)}</script>
<script src="${assetBase}/uplot.iife.min.js"></script>
<script src="${assetBase}/status-page.js"></script>
</body>
</html>
`
}
