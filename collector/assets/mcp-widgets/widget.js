// Guard's MCP App widgets: one bundle for the four views. The host sends the tool result over
// postMessage (ext-apps App); the view draws its structuredContent with DOM calls only, so no
// host data is ever parsed as HTML.
import { App, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps'

const root = document.getElementById('root')
const kind = document.body.dataset.widget

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  for (const child of children) node.append(child instanceof Node ? child : String(child))
  return node
}

const number = (value, digits = 0) =>
  typeof value === 'number' && Number.isFinite(value)
    ? value.toLocaleString(undefined, { maximumFractionDigits: digits })
    : '–'
const percent = (value) => (typeof value === 'number' ? `${number(value, 2)} %` : '–')
const when = (value) => (value ? new Date(value).toLocaleString() : '–')

function tile(label, value, tone) {
  return el(
    'div',
    { class: `tile${tone ? ` ${tone}` : ''}` },
    el('span', { class: 'value' }, value),
    el('span', { class: 'label' }, label),
  )
}

/** Why a heartbeat is down, as get_heartbeats_status names it. */
const REASONS = {
  missed: 'no ping in time',
  failed: 'reported a failure',
  exit_code: 'exited with an error',
  too_long: 'ran too long',
}

function badge(status) {
  return el('span', { class: `badge ${status}` }, status)
}

function section(title, ...children) {
  return el('section', {}, el('h2', {}, title), ...children)
}

function table(headers, rows) {
  const head = el('tr', {}, ...headers.map((header) => el('th', { scope: 'col' }, header)))
  return el(
    'table',
    {},
    el('thead', {}, head),
    el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, cell))))),
  )
}

const views = {
  dashboard(data) {
    const { domains, devices, services, heartbeats, incidents } = data
    return [
      el('h1', {}, 'Monitoring overview'),
      el(
        'div',
        { class: 'tiles' },
        tile('Domains up', `${number(domains.up)} / ${number(domains.total)}`, domains.down ? 'bad' : 'good'),
        tile('Domain uptime (24 h)', percent(domains.uptime)),
        tile('Services up', `${number(services.up)} / ${number(services.total)}`, services.down ? 'bad' : 'good'),
        tile(
          'Heartbeats up',
          `${number(heartbeats.up)} / ${number(heartbeats.total)}`,
          heartbeats.down ? 'bad' : 'good',
        ),
        tile(
          'Devices online',
          `${number(devices.online)} / ${number(devices.total)}`,
          devices.offline ? 'warn' : 'good',
        ),
        tile('Open incidents', number(incidents.active), incidents.active ? 'warn' : 'good'),
        tile('Critical incidents', number(incidents.critical), incidents.critical ? 'bad' : 'good'),
      ),
    ]
  },
  incidents(data) {
    const rows = data.incidents.map((incident) => [
      incident.title,
      badge(incident.status),
      el('span', { class: `severity ${incident.severity}` }, incident.severity),
      when(incident.detectedAt),
      when(incident.resolvedAt),
    ])
    return [
      el('h1', {}, 'Incidents'),
      el(
        'div',
        { class: 'tiles' },
        tile('Open', number(data.summary.open), data.summary.open ? 'warn' : 'good'),
        tile('Critical', number(data.summary.critical), data.summary.critical ? 'bad' : 'good'),
        tile('Matching', number(data.total)),
      ),
      rows.length
        ? section(`Latest ${rows.length}`, table(['Title', 'Status', 'Severity', 'Detected', 'Resolved'], rows))
        : el('p', { class: 'empty' }, 'No incident matches.'),
    ]
  },
  domains(data) {
    const { summary } = data
    const rows = data.domains.map((domain) => [
      domain.url ? el('span', { title: domain.url }, domain.name) : domain.name,
      badge(domain.status),
      domain.responseTime === null ? '–' : `${number(domain.responseTime)} ms`,
      percent(domain.uptime),
    ])
    return [
      el('h1', {}, 'Domains'),
      el(
        'div',
        { class: 'tiles' },
        tile('Up', `${number(summary.up)} / ${number(summary.total)}`, summary.down ? 'bad' : 'good'),
        tile('Down', number(summary.down), summary.down ? 'bad' : 'good'),
        tile('Avg response', summary.avgResponseTime === null ? '–' : `${number(summary.avgResponseTime)} ms`),
        tile('Uptime (24 h)', percent(summary.uptime)),
      ),
      rows.length
        ? section('Each domain', table(['Domain', 'Status', 'Response', 'Uptime'], rows))
        : el('p', { class: 'empty' }, 'No domain to show.'),
    ]
  },
  heartbeats(data) {
    const rows = data.heartbeats.map((heartbeat) => [
      heartbeat.name,
      badge(heartbeat.status),
      heartbeat.reason ? (REASONS[heartbeat.reason] ?? heartbeat.reason) : '–',
      when(heartbeat.lastPingAt),
      when(heartbeat.nextExpectedAt),
    ])
    return [
      el('h1', {}, 'Heartbeats'),
      el(
        'div',
        { class: 'tiles' },
        tile('Up', `${number(data.up)} / ${number(data.total)}`, data.down ? 'bad' : 'good'),
        tile('Down', number(data.down), data.down ? 'bad' : 'good'),
      ),
      rows.length
        ? section('Each heartbeat', table(['Heartbeat', 'Status', 'Why down', 'Last ping', 'Next expected'], rows))
        : el('p', { class: 'empty' }, 'No heartbeat to show.'),
    ]
  },
}

function draw(data) {
  try {
    root.replaceChildren(...views[kind](data))
  } catch {
    root.replaceChildren(el('p', { class: 'empty' }, 'This result cannot be shown here.'))
  }
  document.body.dataset.rendered = 'true'
}

function theme(context) {
  if (context?.theme) applyDocumentTheme(context.theme)
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables)
}

const app = new App({ name: `guard-${kind}`, version: '1.0.0' })
app.ontoolresult = (result) => {
  if (result.structuredContent) draw(result.structuredContent)
}
app.onhostcontextchanged = theme
app.connect().then(
  () => theme(app.getHostContext()),
  () => root.replaceChildren(el('p', { class: 'empty' }, 'Waiting for the assistant to connect.')),
)
