import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { httpConditions } from '../contracts/monitor.ts'
import { formatDuration, parseDuration } from './duration.ts'
import { ConditionListError, ConditionSyntaxError, parseCondition, parseConditions } from './parse.ts'

const syntaxError = (text: string) => {
  try {
    parseCondition(text)
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return error.message
    throw error
  }
  throw new Error(`${text} parsed`)
}

describe('parseCondition', () => {
  it('reads Gatus examples into their parts', () => {
    expect(parseCondition('[STATUS] == 200')).toMatchObject({
      left: { type: 'placeholder', placeholder: { name: 'STATUS' }, text: '[STATUS]', column: 1 },
      comparator: '==',
      right: { type: 'literal', value: { kind: 'number', value: 200 }, column: 13 },
    })
    expect(parseCondition('[BODY].data.items[0].id == 1').left).toMatchObject({
      placeholder: { name: 'BODY', path: [{ key: 'data' }, { key: 'items' }, { index: 0 }, { key: 'id' }] },
    })
    expect(parseCondition('len([BODY].items) > 0').left).toMatchObject({
      type: 'len',
      placeholder: { name: 'BODY', path: [{ key: 'items' }] },
    })
    expect(parseCondition('[CERTIFICATE_EXPIRATION] > 48h').right).toMatchObject({
      value: { kind: 'duration', ms: 48 * 3_600_000 },
    })
    expect(parseCondition('[RESPONSE_TIME] < 500').comparator).toBe('<')
    expect(parseCondition('[STATUS] == any(200, 429)').right).toMatchObject({
      type: 'any',
      values: [
        { kind: 'number', value: 200 },
        { kind: 'number', value: 429 },
      ],
    })
    expect(parseCondition('[IP] == pat(192.168.*)').right).toMatchObject({ type: 'pat', pattern: '192.168.*' })
    expect(parseCondition('has([BODY].errors) == false').left).toMatchObject({ type: 'has' })
    expect(parseCondition('[CONNECTED] == true').right).toMatchObject({ value: { kind: 'text', value: 'true' } })
  })

  it('reads headers, quoted strings, spaced any() values, lower-case placeholders and no spaces', () => {
    expect(parseCondition('[HEADERS].Content-Type == pat(application/json*)').left).toMatchObject({
      placeholder: { name: 'HEADERS', header: 'Content-Type' },
    })
    expect(parseCondition('[BODY].name == "john \\"jd\\" doe"').right).toMatchObject({
      value: { kind: 'text', value: 'john "jd" doe' },
    })
    expect(parseCondition("[BODY].state == any(OK, 'Not Found', 1h)").right).toMatchObject({
      values: [
        { kind: 'text', value: 'OK' },
        { kind: 'text', value: 'Not Found' },
        { kind: 'duration', ms: 3_600_000 },
      ],
    })
    expect(parseCondition('[status]>=200').left).toMatchObject({ placeholder: { name: 'STATUS' } })
    expect(parseCondition('200 == [STATUS]').right).toMatchObject({ type: 'placeholder' })
    expect(parseCondition('[BODY][0].id != [BODY][1].id').left).toMatchObject({
      placeholder: { path: [{ index: 0 }, { key: 'id' }] },
    })
  })

  it('names the column and what was expected', () => {
    expect(syntaxError('[STATUS] 200')).toBe('expected a comparator (== != <= >= < >) after [STATUS] at column 10')
    expect(syntaxError('[STATUS] ==')).toBe('expected a value after == at column 12')
    expect(syntaxError('[STATUSES] == 200')).toBe(
      'unknown placeholder [STATUSES], expected one of [STATUS], [RESPONSE_TIME], [IP], [CONNECTED], [CERTIFICATE_EXPIRATION], [BODY], [HEADERS] at column 1',
    )
    expect(syntaxError('[STATUS == 200')).toBe('expected ] to close [STATUS at column 8')
    expect(syntaxError('[BODY]. == 1')).toBe('expected a key after . at column 8')
    expect(syntaxError('[BODY].items[x] == 1')).toBe('expected an array index such as [0] at column 14')
    expect(syntaxError('[HEADERS] == 1')).toBe(
      'expected .Name after [HEADERS], such as [HEADERS].Content-Type at column 10',
    )
    expect(syntaxError('len([STATUS]) > 1')).toBe('len() takes [BODY] or [HEADERS], not [STATUS] at column 5')
    expect(syntaxError('len([BODY] > 1')).toBe('expected ) to close len( at column 12')
    expect(syntaxError('size([BODY]) > 1')).toBe('unknown function size(), expected len, has, pat or any at column 1')
    expect(syntaxError('[STATUS] == any(200,)')).toBe('expected a value in any() at column 21')
    expect(syntaxError('[IP] == pat()')).toBe('expected a pattern in pat() at column 13')
    expect(syntaxError('[BODY].name == "open')).toBe('expected a closing " for the string opened at column 16')
    expect(syntaxError('[STATUS] == 200 201')).toBe('unexpected "2" after 200 at column 17')
    expect(syntaxError('1 == 1')).toBe('expected a placeholder such as [STATUS] on one side at column 1')
    expect(syntaxError('[BODY].name < john')).toBe('< compares numbers and durations, john is not one at column 15')
    expect(syntaxError('[STATUS] > any(200, 300)')).toBe(
      '> compares numbers and durations, any(200, 300) is not one at column 12',
    )
    expect(syntaxError('[IP] > 1')).toBe('> compares numbers and durations, [IP] is not one at column 1')
    expect(syntaxError('pat(a*) == any(a)')).toBe('pat() and any() go on one side only at column 12')
    expect(syntaxError('')).toBe('expected a placeholder, a function or a value at column 1')
  })

  it('names the condition of a list, counting from one', () => {
    expect(() => parseConditions(['[STATUS] == 200', '[STATUS] 200'])).toThrow(
      new ConditionListError(1, new ConditionSyntaxError('expected a comparator (== != <= >= < >) after [STATUS]', 10)),
    )
    expect(() => parseConditions(['[STATUS] == 200', '[STATUS] 200'])).toThrow(
      'condition 2: expected a comparator (== != <= >= < >) after [STATUS] at column 10',
    )
  })

  it('refuses a list in the contract with the index in the path and the message', () => {
    const parsed = httpConditions.safeParse(['[STATUS] == 200', 'len([IP]) > 0'])
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: [1],
        message: 'condition 2: len() takes [BODY] or [HEADERS], not [IP] at column 5',
      }),
    ])
    expect(httpConditions.safeParse(['[STATUS] == 200']).success).toBe(true)
  })

  it('throws nothing but its own error on any input', () => {
    const pieces = fc.constantFrom(
      '[STATUS]',
      '[BODY]',
      '[HEADERS]',
      '.',
      '[',
      ']',
      '(',
      ')',
      'len(',
      'has(',
      'pat(',
      'any(',
      ',',
      '"',
      "'",
      '\\',
      ' ',
      '==',
      '<',
      '>=',
      '!',
      '48h',
      '1',
      'x',
    )
    const inputs = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join('')),
    )
    fc.assert(
      fc.property(inputs, (text) => {
        try {
          const condition = parseCondition(text)
          expect(condition.text).toBe(text.trim())
        } catch (error) {
          expect(error).toBeInstanceOf(ConditionSyntaxError)
          const column = (error as ConditionSyntaxError).column
          expect(column).toBeGreaterThanOrEqual(1)
          expect(column).toBeLessThanOrEqual(text.length + 1)
        }
      }),
      { numRuns: 1000 },
    )
  })
})

describe('durations', () => {
  it('parse Go units plus days and print the two largest units', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000)
    expect(parseDuration('500ms')).toBe(500)
    expect(parseDuration('2d')).toBe(172_800_000)
    expect(parseDuration('1.5s')).toBe(1500)
    expect(parseDuration('48')).toBeUndefined()
    expect(parseDuration('h')).toBeUndefined()
    expect(formatDuration(47 * 3_600_000 + 59 * 60_000 + 5000)).toBe('47h59m')
    expect(formatDuration(3 * 86_400_000 + 2 * 3_600_000)).toBe('74h')
    expect(formatDuration(86_400_000 + 5000)).toBe('24h')
    expect(formatDuration(250)).toBe('250ms')
    expect(formatDuration(0)).toBe('0ms')
  })
})
