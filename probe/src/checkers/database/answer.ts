import type { ExpectRows } from '@guard/shared'

/** What a database answered, reduced to what the assertions read. */
export interface QueryAnswer {
  rowCount: number
  /** The first column of the first row; absent when there is no row. */
  first?: { value: unknown }
}

export interface QueryAssertions {
  expectRows?: ExpectRows | undefined
  expectValue?: string | undefined
}

/** A value as text, the way `expectValue` compares it. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (value instanceof Date) return value.toISOString()
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const holds = (actual: number, { count, comparison = '==' }: ExpectRows) =>
  comparison === '==' ? actual === count : comparison === '>=' ? actual >= count : actual <= count

/** Why the answer fails the assertions, naming expected and actual; undefined when they hold. */
export function assertionProblem(answer: QueryAnswer, { expectRows, expectValue }: QueryAssertions) {
  if (expectRows && !holds(answer.rowCount, expectRows)) {
    return `expected rows ${expectRows.comparison ?? '=='} ${expectRows.count}, got ${answer.rowCount}`
  }
  if (expectValue !== undefined) {
    if (!answer.first) return `expected value "${expectValue}", got no rows`
    const actual = valueText(answer.first.value)
    if (actual !== expectValue) return `expected value "${expectValue}", got "${actual.slice(0, 200)}"`
  }
  return undefined
}
