import { describe, expect, it } from 'vitest'
import { escapeHtml } from '../escape-html.ts'
import { renderHistoryHtml, renderIncidentPageHtml } from '../render-history.ts'
import { renderStatusPageHtml } from '../render-html.ts'
import type { PublicStatusPage } from '../schemas.ts'
import { renderSubscribeForm } from '../subscribers/render-form.ts'
import { mailOf } from '../subscribers/send.ts'
import { LOCALES, type Locale } from './locales.ts'
import { CATALOG, type MessageId, pageText } from './page-text.ts'

type Incident = PublicStatusPage['incidents']['active'][number]

const at = (hoursAgo: number) => new Date(Date.UTC(2026, 10, 24, 12) - hoursAgo * 3_600_000).toISOString()
const days = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    date: `2026-11-${String(index + 10).padStart(2, '0')}`,
    uptime: index === 0 ? null : index === 1 ? 97.5 : 100,
    checks: index === 0 ? 0 : 1440,
    failures: index === 1 ? 36 : 0,
  }))

const incident = (status: string, resolvedAt: string | null): Incident => ({
  key: 'AAAAAAAAAAAAAAAAAAAAAA',
  title: 'API',
  status,
  severity: 'high',
  impact: 'partial',
  startedAt: at(5),
  resolvedAt,
  components: ['API', 'Web'],
  updates: [{ status, message: 'Notes of the team', createdAt: at(4) }],
})

/** Every kind of component, incident and maintenance the page shows, so every message of it is rendered. */
const page = (locale: Locale): PublicStatusPage => ({
  name: 'Acme',
  slug: 'acme',
  description: '',
  theme: 'auto',
  accentColor: null,
  logoUrl: 'https://acme.example/logo.png',
  links: [{ label: 'Acme', url: 'https://acme.example' }],
  timezone: 'Europe/Berlin',
  locale,
  status: 'partial_outage',
  generatedAt: at(0),
  components: [
    {
      name: 'API',
      kind: 'service',
      status: 'down',
      uptime90d: 99.95,
      daily: days(3),
      locations: [{ location: 'fra', status: 'down', points: [{ t: at(1), avg: 123.4 }] }],
    },
    {
      name: 'Backup',
      kind: 'heartbeat',
      status: 'up',
      uptime90d: null,
      daily: days(2),
      locations: [],
      heartbeat: { lastPingAt: at(2), nextExpectedAt: null },
    },
    { name: 'Laptop', kind: 'device', status: 'unknown', uptime90d: 100, daily: days(2), locations: [] },
    {
      name: 'Web',
      kind: 'group',
      status: 'degraded',
      uptime90d: null,
      daily: [],
      locations: [],
      members: [
        { name: 'Edge', kind: 'group', status: 'degraded' },
        { name: 'CDN', kind: 'domain', status: 'up' },
      ],
    },
  ],
  incidents: { active: [incident('investigating', null)], recent: [incident('resolved', at(1))] },
  maintenance: [
    {
      title: 'Database upgrade',
      startsAt: at(-24),
      endsAt: at(-26),
      recurrence: 'weekly',
      status: 'upcoming',
      components: ['API'],
    },
  ],
})

/** The four renderings visitors and subscribers read, each in `locale`. */
function renderings(locale: Locale): Record<string, string> {
  const text = pageText(locale)
  const shown = page(locale)
  const answer = { page: shown, componentIds: ['c1', 'c2', 'c3', 'c4'] }
  const mail = mailOf(
    {
      type: 'incident.updated',
      pageName: 'Acme',
      slug: 'acme',
      title: 'API',
      text: 'Notes of the team',
      status: 'investigating',
      occurredAt: at(0),
      components: ['API', 'Web'],
      locale,
    },
    { page: 'https://acme.example/status/acme', action: '', unsubscribe: 'https://acme.example/u' },
  )
  return {
    page: renderStatusPageHtml(
      shown,
      '/assets',
      '/status/acme',
      renderSubscribeForm(answer, '/status/acme', text),
      text,
    ),
    history: renderHistoryHtml(
      { answer, month: '2026-11', incidents: shown.incidents.recent, older: '2026-09', newer: null },
      '/assets',
      '/status/acme',
      text,
    ),
    emptyHistory: renderHistoryHtml(
      { answer, month: '2026-10', incidents: [], older: null, newer: '2026-11' },
      '/assets',
      '/status/acme',
      text,
    ),
    incident: renderIncidentPageHtml(shown, shown.incidents.active[0]!, '/assets', '/status/acme', text),
    mail: `${mail.subject}\n${mail.text}\n${mail.html}`,
  }
}

/** A message id shown as itself: what formatjs falls back to without a message. */
const RAW_ID = new RegExp(`\\b(${Object.keys(CATALOG.en).join('|').replaceAll('.', '\\.')})\\b`)

/** English sentences and labels (no arguments, long enough not to be a name or a loanword) a locale words otherwise. */
const englishLeftovers = (locale: Locale) =>
  (Object.keys(CATALOG.en) as MessageId[]).filter(
    (id) => !CATALOG.en[id].includes('{') && CATALOG.en[id].length >= 8 && CATALOG[locale][id] !== CATALOG.en[id],
  )

/** A message as whole words (`Incident` is not in `Incidente`), escaped like the page escapes it. */
const asWords = (message: string) =>
  new RegExp(`(?<!\\p{L})${escapeHtml(message).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u')

describe('status page renderings in every locale', () => {
  it.each(LOCALES)(
    '%s: page, history, incident page and subscriber mail show no message id and no English',
    (locale) => {
      const leftovers = englishLeftovers(locale)
      for (const [name, html] of Object.entries(renderings(locale))) {
        expect(html, `${locale} ${name}`).not.toMatch(RAW_ID)
        for (const id of leftovers) expect(html, `${locale} ${name}: ${id}`).not.toMatch(asWords(CATALOG.en[id]))
      }
    },
  )

  it('declares the language and direction, right to left for Arabic', () => {
    expect(renderings('ar').page).toContain('<html lang="ar" dir="rtl">')
    expect(renderings('de').history).toContain('<html lang="de" dir="ltr">')
    expect(renderings('ja').incident).toContain('<html lang="ja" dir="ltr">')
    expect(renderings('ar').mail).toContain('<html lang="ar" dir="rtl">')
  })

  it('formats dates, percentages and latencies with the locale', () => {
    const german = renderings('de').page
    expect(german).toMatch(/99,95\s%/)
    expect(german).toContain('123 ms')
    expect(german).toMatch(/24\. Nov\. 2026, \d\d:\d\d MEZ/)
    expect(renderings('en').page).toContain('99.95%')
    expect(renderings('fr').history).toContain('novembre 2026')
  })

  it('fails on a message the catalog does not hold, instead of showing its id', () => {
    expect(() => pageText('fr').text('page.missing' as MessageId)).toThrow()
  })
})
