import { ConditionSyntaxError, parseCondition } from '../../../conditions/parse.ts'
import type { OpenstatusAssertion } from './openstatus-schema.ts'

export interface MappedAssertions {
  conditions: string[]
  keyword?: string
  keywordAbsent?: true
  unmapped: Array<{ index: number; reason: string }>
}

const COMPARATORS: Record<string, string> = { eq: '==', not_eq: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' }

/** A value as a condition's quoted string; the parser takes `\` as an escape. */
const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
const isNumber = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
/** pat() reads `*` and `?` as wildcards, so a text holding one cannot be looked for with it. */
const patternFree = (value: string) => !/[*?]/.test(value)

/** The condition an assertion becomes, or why it becomes none. */
function conditionOf(
  assertion: OpenstatusAssertion,
  keywordFree: boolean,
): { condition: string } | { keyword: string; absent: boolean } | string {
  const { kind, compare } = assertion
  const target = assertion.target === undefined ? undefined : String(assertion.target)
  const comparator = COMPARATORS[compare]
  const subject =
    kind === 'statusCode'
      ? '[STATUS]'
      : kind === 'textBody'
        ? '[BODY]'
        : kind === 'header'
          ? `[HEADERS].${assertion.key ?? ''}`
          : undefined
  if (subject === undefined) return `Guard has no assertion of kind ${kind}`
  if (kind === 'header' && !assertion.key) return 'a header assertion needs the header name (key)'
  if (compare === 'empty' || compare === 'not_empty') {
    if (kind === 'statusCode') return `a status code is never ${compare === 'empty' ? 'empty' : 'not empty'}`
    return { condition: `len(${subject}) ${compare === 'empty' ? '==' : '>'} 0` }
  }
  if (target === undefined) return `${compare} needs a target`
  if (compare === 'contains' || compare === 'not_contains') {
    if (kind === 'statusCode') return `Guard compares status codes as numbers, not with ${compare}`
    if (kind === 'textBody' && keywordFree) return { keyword: target, absent: compare === 'not_contains' }
    if (!patternFree(target)) return `${target} holds * or ?, which pat() reads as wildcards`
    return { condition: `${subject} ${compare === 'contains' ? '==' : '!='} pat(${quoted(`*${target}*`)})` }
  }
  if (comparator === undefined) return `Guard has no comparison ${compare}`
  if (comparator === '==' || comparator === '!=') {
    return {
      condition: `${subject} ${comparator} ${kind === 'statusCode' && isNumber(target) ? target : quoted(target)}`,
    }
  }
  if (!isNumber(target)) return `${compare} compares numbers; ${target} is not one`
  return { condition: `${subject} ${comparator} ${target}` }
}

/**
 * OpenStatus assertions → Guard's conditions (the first body `contains` as the `keyword`
 * option), each checked by the parser the probe runs.
 */
export function mapAssertions(assertions: OpenstatusAssertion[]): MappedAssertions {
  const mapped: MappedAssertions = { conditions: [], unmapped: [] }
  for (const [index, assertion] of assertions.entries()) {
    const result = conditionOf(assertion, mapped.keyword === undefined)
    if (typeof result === 'string') {
      mapped.unmapped.push({ index, reason: result })
    } else if ('keyword' in result) {
      mapped.keyword = result.keyword
      if (result.absent) mapped.keywordAbsent = true
    } else {
      try {
        parseCondition(result.condition)
        mapped.conditions.push(result.condition)
      } catch (error) {
        if (!(error instanceof ConditionSyntaxError)) throw error
        mapped.unmapped.push({ index, reason: `${result.condition}: ${error.message}` })
      }
    }
  }
  return mapped
}
