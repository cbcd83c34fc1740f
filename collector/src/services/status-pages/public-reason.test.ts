import { errorKind } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { LOCALES } from './i18n/locales.ts'
import { pageText } from './i18n/page-text.ts'
import { publicReason, reasonText } from './public-reason.ts'

const english = pageText('en')

describe('publicReason', () => {
  it('words every error kind plainly, without addresses, ports or codes, in every locale', () => {
    for (const kind of errorKind.options) {
      expect(reasonText(publicReason(kind), english)).toMatch(/^[A-Z][a-zA-Z ]+$/)
      for (const locale of LOCALES) expect(reasonText(publicReason(kind), pageText(locale))).not.toMatch(/[:/@]|\d/)
    }
    expect(reasonText(publicReason('connect_refused'), english)).toBe('Connection refused')
    expect(reasonText(publicReason('dns'), pageText('de'))).toBe('DNS-Auflösung fehlgeschlagen')
  })

  it('names the HTTP status when the status was the failure, or when an older probe sent only a status', () => {
    expect(reasonText(publicReason('status_mismatch', 503), english)).toBe('Unexpected status 503')
    expect(reasonText(publicReason(undefined, 502), pageText('fr'))).toBe('Statut inattendu 502')
    expect(reasonText(publicReason('timeout', 504), english)).toBe('Timed out')
    expect(reasonText(publicReason(null), english)).toBe('Checks failing')
  })
})
