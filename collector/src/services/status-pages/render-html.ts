import { escapeHtml } from './escape-html.ts'
import { type PageText, pageText } from './i18n/page-text.ts'
import type { PublicStatusPage } from './schemas.ts'

/** The page lists incidents resolved this many days ago or less (read-public.ts reads them). */
export const RECENT_INCIDENT_DAYS = 14

type Component = PublicStatusPage['components'][number]
type Incident = PublicStatusPage['incidents']['active'][number]

export { escapeHtml } from './escape-html.ts'

export const time = (iso: string, zone: string, text: PageText) =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(text.dateTime(iso, zone))}</time>`

function bar(day: Component['daily'][number], kind: Component['kind'], text: PageText): string {
  const level = day.uptime === null ? 'none' : day.uptime >= 99.9 ? 'ok' : day.uptime >= 95 ? 'warn' : 'bad'
  const date = text.intl.formatDate(`${day.date}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' })
  const title =
    day.uptime === null
      ? text.text('bar.noData', { date })
      : kind === 'device'
        ? text.text('bar.device', { date, uptime: text.percent(day.uptime) })
        : text.text(kind === 'heartbeat' ? 'bar.runs' : 'bar.checks', {
            date,
            uptime: text.percent(day.uptime),
            failures: day.failures,
            checks: day.checks,
          })
  return `<span class="bar ${level}" title="${escapeHtml(title)}"></span>`
}

/** A job reports in: when it last did and when it should next, instead of a latency it does not have. */
function heartbeatTimes(times: NonNullable<Component['heartbeat']>, zone: string, text: PageText): string {
  const last = times.lastPingAt ? time(times.lastPingAt, zone, text) : escapeHtml(text.text('heartbeat.notYet'))
  const next = times.nextExpectedAt ? time(times.nextExpectedAt, zone, text) : escapeHtml(text.text('heartbeat.paused'))
  return `<p class="runs">${text.html('heartbeat.times', {}, { last, next })}</p>`
}

const stateOf = (status: Component['status'], text: PageText) => text.text(`state.${status}`)

/** A group opens into its members, so a page of a few groups still shows what is down in each. */
function members(items: NonNullable<Component['members']>, text: PageText): string {
  const list = items.length
    ? `<ul class="locations">${items
        .map((member) => {
          const name = member.kind === 'group' ? text.text('group.member', { name: member.name }) : member.name
          return `<li><span class="dot ${member.status}"></span>${text.html('component.location', { location: name, state: stateOf(member.status, text) })}</li>`
        })
        .join('')}</ul>`
    : `<p>${text.html('group.noMembers')}</p>`
  return `<details class="members"><summary>${text.html('group.members', { count: items.length })}</summary>${list}</details>`
}

function component(item: Component, index: number, zone: string, text: PageText): string {
  const bars = item.daily.length
    ? `<div class="bars" role="img" aria-label="${text.html('component.barsLabel', { name: item.name })}">${item.daily.map((day) => bar(day, item.kind, text)).join('')}</div>
       <div class="legend"><span>${text.html('component.daysAgo')}</span><span>${item.uptime90d === null ? text.html('component.noData') : text.html('component.uptime', { uptime: text.percent(item.uptime90d) })}</span><span>${text.html('component.today')}</span></div>`
    : ''
  const locations = item.locations.length
    ? `<ul class="locations">${item.locations
        .map((location) => {
          const last = location.points.at(-1)
          const latency = last
            ? text.intl.formatNumber(Math.round(last.avg), { style: 'unit', unit: 'millisecond', unitDisplay: 'short' })
            : null
          const state = stateOf(location.status, text)
          return `<li><span class="dot ${location.status}"></span>${text.html('component.location', {
            location: location.location,
            state: latency ? text.list([state, latency]) : state,
          })}</li>`
        })
        .join('')}</ul>
       <div class="chart" data-component="${index}" aria-hidden="true"></div>`
    : ''
  return `<li class="component">
    <div class="row"><h3>${escapeHtml(item.name)}</h3><span class="state ${item.status}">${escapeHtml(stateOf(item.status, text))}</span></div>
    ${bars}${item.heartbeat ? heartbeatTimes(item.heartbeat, zone, text) : ''}${item.members ? members(item.members, text) : ''}${locations}</li>`
}

/** An incident's facts: status, severity, start, resolution, components, as a list the locale punctuates. */
export function incidentFacts(item: Incident, text: PageText, at: (iso: string) => string): string {
  const facts = [
    escapeHtml(text.text('incident.status', { status: item.status })),
    escapeHtml(text.text('incident.severity', { severity: item.severity })),
    text.html('incident.started', {}, { time: at(item.startedAt) }),
    ...(item.resolvedAt ? [text.html('incident.resolved', {}, { time: at(item.resolvedAt) })] : []),
    ...(item.components.length ? [escapeHtml(text.list(item.components))] : []),
  ]
  return facts.join(' · ')
}

/**
 * An incident with its public timeline; its title links to its permanent page under `pagePath`
 * (`/status/{slug}`, or `` on the page's custom host) or, without one, is the page's heading.
 */
export function incident(item: Incident, zone: string, pagePath: string | null, text: PageText): string {
  const updates = item.updates
    .map(
      (update) =>
        `<li><strong>${escapeHtml(text.text('incident.status', { status: update.status }))}</strong> ${time(update.createdAt, zone, text)}<p>${escapeHtml(update.message)}</p></li>`,
    )
    .join('')
  return `<article class="incident ${escapeHtml(item.severity)}">
    <h3>${pagePath !== null ? `<a href="${escapeHtml(pagePath)}/incidents/${escapeHtml(item.key)}">${escapeHtml(item.title)}</a>` : escapeHtml(item.title)}</h3>
    <p class="meta">${incidentFacts(item, text, (iso) => time(iso, zone, text))}</p>
    ${updates ? `<ol class="updates">${updates}</ol>` : ''}</article>`
}

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
const embedded = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

function maintenance(page: PublicStatusPage, text: PageText): string {
  if (!page.maintenance.length) return ''
  const zone = page.timezone
  const items = page.maintenance
    .map((item) => {
      const state = [
        text.text(item.status === 'ongoing' ? 'maintenance.ongoing' : 'maintenance.upcoming'),
        ...(item.recurrence === 'none' ? [] : [text.text(`maintenance.${item.recurrence}`)]),
      ]
      const range = text.html(
        'maintenance.range',
        {},
        { start: time(item.startsAt, zone, text), end: time(item.endsAt, zone, text) },
      )
      return `<li><strong>${escapeHtml(item.title)}</strong> (${escapeHtml(text.list(state))}): ${range} (${escapeHtml(text.list(item.components))})</li>`
    })
    .join('')
  return `<section aria-labelledby="maintenance"><h2 id="maintenance">${text.html('section.maintenance')}</h2><ul>${items}</ul></section>`
}

/** Links leave the page without handing it the visitor's referrer or a window reference. */
export function header(page: PublicStatusPage, text: PageText): string {
  const logo = page.logoUrl
    ? `<img class="logo" src="${escapeHtml(page.logoUrl)}" alt="${text.html('page.logoAlt', { name: page.name })}" referrerpolicy="no-referrer">`
    : ''
  const links = page.links.length
    ? `<nav aria-label="${text.html('page.links')}"><ul class="links">${page.links
        .map(
          (link) =>
            `<li><a href="${escapeHtml(link.url)}" rel="noopener noreferrer nofollow">${escapeHtml(link.label)}</a></li>`,
        )
        .join('')}</ul></nav>`
    : ''
  return `<header${page.accentColor ? ` class="accent" style="--accent: ${page.accentColor}"` : ''}>
  ${logo}${links}
  <h1>${escapeHtml(page.name)}</h1>
  ${page.description ? `<p class="description">${escapeHtml(page.description)}</p>` : ''}
  <p class="banner ${page.status}" role="status">${text.html(`overall.${page.status}`)}</p>
</header>`
}

/** `<html>` of every public rendering: the language and direction visitors' browsers, screen readers and CSS follow. */
export const htmlStart = (text: PageText, theme: PublicStatusPage['theme'] | null) =>
  `<html lang="${text.locale}" dir="${text.dir}"${theme === null || theme === 'auto' ? '' : ` data-theme="${theme}"`}>`

/** The origins the page's logo may load from: its own, besides the collector's. */
export const logoOrigin = (page: PublicStatusPage): string | null =>
  page.logoUrl ? new URL(page.logoUrl).origin : null

/**
 * The public page, complete without JavaScript; the script only draws the latency charts from the
 * series embedded in the page (uPlot, served by the collector itself). `text` is the page's locale,
 * or the one a visitor chose with `?lang=`.
 */
export function renderStatusPageHtml(
  page: PublicStatusPage,
  assetBase: string,
  /** `` on the page's custom domain, whose paths start at its root. */
  pagePath = `/status/${page.slug}`,
  subscribeForm = '',
  text: PageText = pageText(page.locale),
): string {
  const path = escapeHtml(pagePath)
  const json = pagePath === '' ? '/status.json' : `/api/status-pages/${escapeHtml(page.slug)}/public`
  const series = page.components.map((item) => item.locations.map(({ location, points }) => ({ location, points })))
  const scheme = page.theme === 'auto' ? 'light dark' : page.theme
  const zone = page.timezone
  return `<!doctype html>
${htmlStart(text, page.theme)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}">
<title>${text.html('page.title', { name: page.name })}</title>
<link rel="stylesheet" href="${assetBase}/uplot.min.css">
<link rel="stylesheet" href="${assetBase}/status-page.css">
<link rel="alternate" type="application/json" href="${json}">
<link rel="alternate" type="application/atom+xml" title="${text.html('page.feedTitle', { name: page.name })}" href="${path}/feed.atom">
</head>
<body>
<main>
${header(page, text)}
${maintenance(page, text)}
${
  page.incidents.active.length
    ? `<section aria-labelledby="active"><h2 id="active">${text.html('section.active')}</h2>${page.incidents.active.map((item) => incident(item, zone, pagePath, text)).join('')}</section>`
    : ''
}
<section aria-labelledby="components"><h2 id="components">${text.html('section.components')}</h2>
<ul class="components">${page.components.map((item, index) => component(item, index, zone, text)).join('')}</ul></section>
<section aria-labelledby="recent"><h2 id="recent">${text.html('section.recent')}</h2>
${page.incidents.recent.length ? page.incidents.recent.map((item) => incident(item, zone, pagePath, text)).join('') : `<p>${text.html('page.noRecent', { days: RECENT_INCIDENT_DAYS })}</p>`}
</section>
${subscribeForm}
<footer><p>${text.html('page.footer', {}, { time: time(page.generatedAt, zone, text) })} <a href="${path}/history">${text.html('link.history')}</a> · <a href="${path}/feed.atom">${text.html('link.feed')}</a></p></footer>
</main>
<script type="application/json" id="latency-data" data-timezone="${escapeHtml(zone)}" data-until="${escapeHtml(page.generatedAt)}" data-locale="${text.locale}">${embedded(series)}</script>
<script src="${assetBase}/uplot.iife.min.js"></script>
<script src="${assetBase}/status-page.js"></script>
</body>
</html>
`
}
