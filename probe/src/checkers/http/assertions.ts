import { isDeepStrictEqual } from 'node:util'
import type { ErrorKind, HttpTarget } from '@guard/shared'
import { truncateText } from '@guard/shared'
import { JSONPath } from 'jsonpath-plus'

const DEFAULT_EXPECTED: NonNullable<HttpTarget['expectedStatus']> = ['200-399']

export function statusExpected(status: number, expected = DEFAULT_EXPECTED): boolean {
  return expected.some((entry) => {
    if (typeof entry === 'number') return entry === status
    const [from, to] = entry.split('-').map(Number)
    return from !== undefined && to !== undefined && status >= from && status <= to
  })
}

export interface BodyProblem {
  kind: ErrorKind
  message: string
}

const isJsonType = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim())

/** The first body assertion that fails, with its kind; undefined when all hold. */
export function bodyProblem(target: HttpTarget, body: Buffer, contentType?: string): BodyProblem | undefined {
  const asserted =
    target.keyword !== undefined || target.regex !== undefined || target.jsonPath !== undefined || target.expectJson
  if (!asserted) return undefined
  const text = body.toString('utf8')
  if (target.expectJson) {
    if (!isJsonType(contentType)) {
      return { kind: 'not_json', message: `content type is ${contentType ?? 'missing'}, expected JSON` }
    }
    try {
      JSON.parse(text)
    } catch {
      return { kind: 'not_json', message: 'body is not valid JSON' }
    }
  }
  if (target.keyword !== undefined) {
    const found = text.includes(target.keyword)
    if (target.keywordAbsent && found) {
      return { kind: 'keyword_present', message: `keyword ${JSON.stringify(target.keyword)} found in the body` }
    }
    if (!target.keywordAbsent && !found) {
      return { kind: 'keyword_missing', message: `keyword ${JSON.stringify(target.keyword)} not found in the body` }
    }
  }
  if (target.regex !== undefined && !new RegExp(target.regex).test(text)) {
    return { kind: 'regex_mismatch', message: `body does not match /${target.regex}/` }
  }
  if (target.jsonPath !== undefined) {
    const message = jsonPathProblem(target.jsonPath, text)
    if (message) return { kind: 'json_assertion', message }
  }
  return undefined
}

function jsonPathProblem(assertion: NonNullable<HttpTarget['jsonPath']>, text: string): string | undefined {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return `body is not JSON, cannot evaluate ${assertion.path}`
  }
  let matches: unknown[]
  try {
    matches = JSONPath({ path: assertion.path, json: json as object, wrap: true }) as unknown[]
  } catch (error) {
    return `JSONPath ${assertion.path} failed: ${error instanceof Error ? error.message : String(error)}`
  }
  if (matches.length === 0) return `JSONPath ${assertion.path} matched nothing`
  if (assertion.equals === undefined) return undefined
  if (matches.some((match) => isDeepStrictEqual(match, assertion.equals))) return undefined
  return `JSONPath ${assertion.path} is ${truncateText(JSON.stringify(matches[0]), 200)}, expected ${truncateText(JSON.stringify(assertion.equals), 200)}`
}
