import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl'
import { escapeHtml } from '../escape-html.ts'
import { directionOf, type Locale } from './locales.ts'
import ar from './messages/ar.json' with { type: 'json' }
import de from './messages/de.json' with { type: 'json' }
import en from './messages/en.json' with { type: 'json' }
import es from './messages/es.json' with { type: 'json' }
import fr from './messages/fr.json' with { type: 'json' }
import ja from './messages/ja.json' with { type: 'json' }
import nl from './messages/nl.json' with { type: 'json' }
import pt from './messages/pt.json' with { type: 'json' }

export type MessageId = keyof typeof en
type Catalog = Record<MessageId, string>
export const CATALOG: Record<Locale, Catalog> = { en, de, fr, es, nl, pt, ja, ar }
type Values = Record<string, string | number>

/**
 * Everything a visitor-facing rendering says, in one locale: the catalog's messages (ICU
 * MessageFormat through formatjs) and the locale's dates, numbers and lists.
 */
export interface PageText {
  locale: Locale
  dir: 'ltr' | 'rtl'
  intl: IntlShape<string>
  /** A message as plain text (mail text, feed titles, JSON answers). */
  text(id: MessageId, values?: Values): string
  /** A message as HTML: its text escaped, `markup` values (already HTML, e.g. a `<time>`) inserted as they are. */
  html(id: MessageId, values?: Values, markup?: Record<string, string>): string
  /** A moment in a time zone: date, time and the zone's abbreviation, so nobody guesses. */
  dateTime(iso: string, timeZone: string): string
  /** `2026-11` as the month's name and year. */
  month(month: string): string
  /** A percentage given as 0–100, with the locale's separators and sign (`99.95%`, `99,95 %`). */
  percent(value: number): string
  list(items: string[]): string
}

const cache = createIntlCache()
const texts = new Map<Locale, PageText>()
/** Tests make a missing message or a bad argument throw; a running collector logs nothing per visit and shows the id. */
const strict = process.env.VITEST !== undefined

function build(locale: Locale): PageText {
  const intl = createIntl(
    {
      locale,
      defaultLocale: 'en',
      messages: CATALOG[locale],
      onError: (error) => {
        if (strict) throw error
      },
    },
    cache,
  )
  const text = (id: MessageId, values?: Values) => intl.formatMessage({ id }, values)
  return {
    locale,
    dir: directionOf(locale),
    intl,
    text,
    html(id, values = {}, markup = {}) {
      // Private-use characters hold the slots through formatting and escaping: no message contains them.
      const slots = Object.keys(markup)
      const marked = { ...values, ...Object.fromEntries(slots.map((name, index) => [name, `\uE000${index}\uE001`])) }
      return escapeHtml(text(id, marked)).replace(/\uE000(\d+)\uE001/g, (_, index) => markup[slots[Number(index)]!]!)
    },
    dateTime: (iso, timeZone) =>
      intl.formatDate(iso, {
        timeZone,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }),
    month: (month) => intl.formatDate(`${month}-01T00:00:00Z`, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    percent: (value) => intl.formatNumber(value / 100, { style: 'percent', maximumFractionDigits: 2 }),
    list: (items) => intl.formatList(items, { type: 'conjunction' }),
  }
}

/** The page text of a locale, built once per process: formatjs caches its formatters inside it. */
export function pageText(locale: Locale): PageText {
  let text = texts.get(locale)
  if (!text) {
    text = build(locale)
    texts.set(locale, text)
  }
  return text
}
