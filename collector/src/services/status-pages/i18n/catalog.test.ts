import { describe, expect, it } from 'vitest'
import { LOCALES } from './locales.ts'
import { CATALOG, type MessageId, pageText } from './page-text.ts'

interface Element {
  type: number
  value?: unknown
  options?: Record<string, { value: Element[] }>
}

/** The names of a message's arguments, nested in plurals and selects too. */
function argumentsOf(elements: Element[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    // 0 is literal text and 7 the `#` of a plural: neither names an argument.
    if (element.type !== 0 && element.type !== 7 && typeof element.value === 'string') names.add(element.value)
    for (const option of Object.values(element.options ?? {})) argumentsOf(option.value, names)
  }
  return names
}

const english = CATALOG.en
const ids = Object.keys(english).sort() as MessageId[]

describe('the status page message catalog', () => {
  it.each(LOCALES)('%s has exactly the keys of en', (locale) => {
    expect(Object.keys(CATALOG[locale]).sort()).toEqual(ids)
  })

  it.each(LOCALES)('%s: every message parses as ICU MessageFormat and takes the arguments of en', (locale) => {
    const { intl } = pageText(locale)
    for (const id of ids) {
      const parse = (message: string, language: string) =>
        argumentsOf(intl.formatters.getMessageFormat(message, language).getAst() as Element[])
      const names = parse(CATALOG[locale][id], locale)
      expect([...names].sort(), `${locale} ${id}`).toEqual([...parse(english[id], 'en')].sort())
    }
  })

  it('has a translation, not a copy of the English, for almost every message of every locale', () => {
    for (const locale of LOCALES.filter((item) => item !== 'en')) {
      const copied = ids.filter((id) => CATALOG[locale][id] === english[id])
      // What stays the same is punctuation around arguments (`{location}: {state}`) and loanwords (Links, Offline).
      expect(copied.length, `${locale}: ${copied.join(', ')}`).toBeLessThanOrEqual(5)
    }
  })
})
