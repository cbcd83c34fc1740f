import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseWellFormedJson, truncateText } from './well-formed.ts'

describe('well-formed text', () => {
  it('never leaves a lone surrogate when a cut falls inside a pair', () => {
    const text = `${'a'.repeat(198)}😀`
    expect(text.slice(0, 199).isWellFormed()).toBe(false)
    expect(truncateText(text, 199)).toBe('a'.repeat(198))
    expect(truncateText(text, 200)).toBe(text)
  })

  it('keeps every cut of any string well-formed and no longer than asked', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(40), (text, max) => {
        const cut = truncateText(text, max)
        expect(cut.isWellFormed()).toBe(true)
        expect(cut.length).toBeLessThanOrEqual(max)
      }),
    )
  })

  it('turns lone surrogate escapes in values and keys into U+FFFD and keeps valid pairs', () => {
    const parsed = parseWellFormedJson('{"error":"a\\ud83d","ok":"\\ud83d\\ude00","\\udc00":["\\udfff"]}')
    expect(parsed).toEqual({ error: 'a\uFFFD', ok: '😀', '\uFFFD': ['\uFFFD'] })
  })

  it('parses like JSON.parse when nothing needs repair', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        expect(parseWellFormedJson(json)).toEqual(JSON.parse(json))
      }),
    )
  })
})
