import type { PublicStatusPage } from './schemas.ts'

type Component = PublicStatusPage['components'][number]
type Incident = PublicStatusPage['incidents']['active'][number]

export const escapeHtml = (value: string) =>
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

const formatters = new Map<string, Intl.DateTimeFormat>()
/** `2026-11-24 13:05 CET`: the page's time zone, with its abbreviation so nobody guesses. */
function formatTime(iso: string, timeZone: string): string {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
    formatters.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]))
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`
}

export const time = (iso: string, timeZone: string) =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatTime(iso, timeZone))}</time>`

function bar(day: Component['daily'][number], kind: Component['kind']): string {
  const level = day.uptime === null ? 'none' : day.uptime >= 99.9 ? 'ok' : day.uptime >= 95 ? 'warn' : 'bad'
  const text =
    day.uptime === null
      ? `${day.date}: no data`
      : kind === 'device'
        ? `${day.date}: online ${day.uptime}% of the day`
        : `${day.date}: ${day.uptime}% up (${day.failures} of ${day.checks} ${kind === 'heartbeat' ? 'runs' : 'checks'} failed)`
  return `<span class="bar ${level}" title="${escapeHtml(text)}"></span>`
}

/** A job reports in: when it last did and when it should next, instead of a latency it does not have. */
function heartbeatTimes(times: NonNullable<Component['heartbeat']>, zone: string): string {
  const last = times.lastPingAt ? time(times.lastPingAt, zone) : 'not yet'
  const next = times.nextExpectedAt ? time(times.nextExpectedAt, zone) : 'paused'
  return `<p class="runs">Last reported: ${last} · next expected: ${next}</p>`
}

/** A group opens into its members, so a page of a few groups still shows what is down in each. */
function members(items: NonNullable<Component['members']>): string {
  const list = items.length
    ? `<ul class="locations">${items
        .map(
          (member) =>
            `<li><span class="dot ${member.status}"></span>${escapeHtml(member.name)}${member.kind === 'group' ? ' (group)' : ''}: ${STATE[member.status]}</li>`,
        )
        .join('')}</ul>`
    : '<p>No members.</p>'
  return `<details class="members"><summary>${items.length} ${items.length === 1 ? 'member' : 'members'}</summary>${list}</details>`
}

function component(item: Component, index: number, zone: string): string {
  const bars = item.daily.length
    ? `<div class="bars" role="img" aria-label="${escapeHtml(`Daily uptime of ${item.name} over 90 days`)}">${item.daily.map((day) => bar(day, item.kind)).join('')}</div>
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
    ${bars}${item.heartbeat ? heartbeatTimes(item.heartbeat, zone) : ''}${item.members ? members(item.members) : ''}${locations}</li>`
}

/**
 * An incident with its public timeline; its title links to its permanent page under `pagePath`
 * (`/status/{slug}`, or `` on the page's custom host) or, without one, is the page's heading.
 */
export function incident(item: Incident, zone: string, pagePath: string | null): string {
  const updates = item.updates
    .map(
      (update) =>
        `<li><strong>${escapeHtml(update.status)}</strong> ${time(update.createdAt, zone)}<p>${escapeHtml(update.message)}</p></li>`,
    )
    .join('')
  return `<article class="incident ${escapeHtml(item.severity)}">
    <h3>${pagePath !== null ? `<a href="${escapeHtml(pagePath)}/incidents/${escapeHtml(item.key)}">${escapeHtml(item.title)}</a>` : escapeHtml(item.title)}</h3>
    <p class="meta">${escapeHtml(item.status)} · ${escapeHtml(item.severity)} · started ${time(item.startedAt, zone)}${item.resolvedAt ? ` · resolved ${time(item.resolvedAt, zone)}` : ''}${item.components.length ? ` · ${item.components.map(escapeHtml).join(', ')}` : ''}</p>
    ${updates ? `<ol class="updates">${updates}</ol>` : ''}</article>`
}

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
const embedded = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

const RECURRENCE: Record<PublicStatusPage['maintenance'][number]['recurrence'], string> = {
  none: '',
  daily: ', repeats daily',
  weekly: ', repeats weekly',
}

function maintenance(page: PublicStatusPage): string {
  if (!page.maintenance.length) return ''
  const items = page.maintenance
    .map(
      (item) =>
        `<li><strong>${escapeHtml(item.title)}</strong> (${item.status === 'ongoing' ? 'in progress' : 'upcoming'}${RECURRENCE[item.recurrence]}): ${time(item.startsAt, page.timezone)} to ${time(item.endsAt, page.timezone)} (${item.components.map(escapeHtml).join(', ')})</li>`,
    )
    .join('')
  return `<section aria-labelledby="maintenance"><h2 id="maintenance">Scheduled maintenance</h2><ul>${items}</ul></section>`
}

/** Links leave the page without handing it the visitor's referrer or a window reference. */
export function header(page: PublicStatusPage): string {
  const logo = page.logoUrl
    ? `<img class="logo" src="${escapeHtml(page.logoUrl)}" alt="${escapeHtml(page.name)} logo" referrerpolicy="no-referrer">`
    : ''
  const links = page.links.length
    ? `<nav aria-label="Links"><ul class="links">${page.links
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
  <p class="banner ${page.status}" role="status">${OVERALL[page.status]}</p>
</header>`
}

/** The origins the page's logo may load from: its own, besides the collector's. */
export const logoOrigin = (page: PublicStatusPage): string | null =>
  page.logoUrl ? new URL(page.logoUrl).origin : null

/**
 * The public page, complete without JavaScript; the script only draws the latency charts from the
 * series embedded in the page (uPlot, served by the collector itself).
 */
export function renderStatusPageHtml(
  page: PublicStatusPage,
  assetBase: string,
  /** `` on the page's custom domain, whose paths start at its root. */
  pagePath = `/status/${page.slug}`,
  subscribeForm = '',
): string {
  const path = escapeHtml(pagePath)
  const json = pagePath === '' ? '/status.json' : `/api/status-pages/${escapeHtml(page.slug)}/public`
  const series = page.components.map((item) => item.locations.map(({ location, points }) => ({ location, points })))
  const scheme = page.theme === 'auto' ? 'light dark' : page.theme
  const zone = page.timezone
  return `<!doctype html>
<html lang="en"${page.theme === 'auto' ? '' : ` data-theme="${page.theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}">
<title>${escapeHtml(page.name)} status</title>
<link rel="stylesheet" href="${assetBase}/uplot.min.css">
<link rel="stylesheet" href="${assetBase}/status-page.css">
<link rel="alternate" type="application/json" href="${json}">
<link rel="alternate" type="application/atom+xml" title="${escapeHtml(page.name)} incidents" href="${path}/feed.atom">
</head>
<body>
<main>
${header(page)}
${maintenance(page)}
${
  page.incidents.active.length
    ? `<section aria-labelledby="active"><h2 id="active">Active incidents</h2>${page.incidents.active.map((item) => incident(item, zone, pagePath)).join('')}</section>`
    : ''
}
<section aria-labelledby="components"><h2 id="components">Components</h2>
<ul class="components">${page.components.map((item, index) => component(item, index, zone)).join('')}</ul></section>
<section aria-labelledby="recent"><h2 id="recent">Past incidents</h2>
${page.incidents.recent.length ? page.incidents.recent.map((item) => incident(item, zone, pagePath)).join('') : '<p>No incidents in the last 14 days.</p>'}
</section>
${subscribeForm}
<footer><p>Updated ${time(page.generatedAt, zone)}. Daily bars are UTC days. Latency is the average response time per probe location over the last 24 hours. <a href="${path}/history">Incident history</a> · <a href="${path}/feed.atom">Incident feed (Atom)</a></p></footer>
</main>
<script type="application/json" id="latency-data" data-timezone="${escapeHtml(zone)}" data-until="${escapeHtml(page.generatedAt)}">${embedded(series)}</script>
<script src="${assetBase}/uplot.iife.min.js"></script>
<script src="${assetBase}/status-page.js"></script>
</body>
</html>
`
}
