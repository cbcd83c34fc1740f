import { z } from 'zod'

/** The languages of the message catalog (messages/<locale>.json); a page speaks one of them. */
export const LOCALES = ['en', 'de', 'fr', 'es', 'nl', 'pt', 'ja', 'ar'] as const
export const localeString = z
  .enum(LOCALES)
  .meta({ description: 'language of the public page, its e-mails and feed: en, de, fr, es, nl, pt, ja or ar' })
export type Locale = z.infer<typeof localeString>

const RIGHT_TO_LEFT = new Set<Locale>(['ar'])
export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr')

/** Each locale's name in itself, for pickers: a visitor looks for their own language by its own name. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  nl: 'Nederlands',
  pt: 'Português',
  ja: '日本語',
  ar: 'العربية',
}

/** `?lang=xx` names one of the catalog's locales for one view of a page; anything else keeps the page's own. */
export const viewLocale = (pageLocale: Locale, lang: unknown): Locale => {
  const parsed = localeString.safeParse(lang)
  return parsed.success ? parsed.data : pageLocale
}

/** The query of the public HTML pages and feed: `lang` shows one view in another of the catalog's locales. */
export const langQuery = z.object({
  lang: localeString.optional().meta({ description: "shows this view in another language than the page's own" }),
})
