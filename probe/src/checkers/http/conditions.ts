import type { IncomingHttpHeaders } from 'node:http'
import {
  type Condition,
  ConditionListError,
  formatDuration,
  type Literal,
  type Operand,
  type PathStep,
  type Placeholder,
  parseConditions,
  readsAnswer,
  truncateText,
} from '@guard/shared'

/** What a condition may read of an HTTP answer. */
export interface Answer {
  statusCode: number
  headers: IncomingHttpHeaders
  body: Buffer
  responseTimeMs: number
  address: string
  certificateExpiresAt: string | undefined
  /** Epoch ms the certificate's remaining time is counted from. */
  now: number
}

type Scalar = number | string | boolean

/** A resolved operand: its value, or why there is none, and how a message quotes it. */
type Resolved = { found: true; value: Scalar; shown: string } | { found: false; shown: string }

const SHOWN_MAX = 100

const cut = (text: string) => (text.length > SHOWN_MAX ? `${truncateText(text, SHOWN_MAX)}…` : text)

const found = (value: Scalar, shown = String(value)): Resolved => ({ found: true, value, shown: cut(shown) })

const NUMERIC_TEXT = /^\s*-?\d+(\.\d+)?\s*$/

function asNumber(value: Scalar): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value)
  return undefined
}

const asText = (value: Scalar) => String(value)

/** A JSON value as a condition compares it: scalars as they are, objects and arrays minified (as Gatus does). */
const scalarOf = (value: unknown): Scalar =>
  typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? value : JSON.stringify(value)

function walk(json: unknown, path: PathStep[]): { value: unknown } | undefined {
  let current = json
  for (const step of path) {
    if ('index' in step) {
      if (!Array.isArray(current) || step.index >= current.length) return undefined
      current = current[step.index]
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined
      if (!Object.hasOwn(current, step.key)) return undefined
      current = (current as Record<string, unknown>)[step.key]
    }
  }
  return { value: current }
}

const lengthOf = (value: unknown) =>
  Array.isArray(value) ? value.length : typeof value === 'string' ? value.length : JSON.stringify(value).length

/** Reads placeholders off one answer, parsing the body as JSON once, when a path first needs it. */
class AnswerReader {
  private json: { value: unknown } | null | undefined

  constructor(
    private readonly answer: Answer,
    private readonly secrets: readonly string[],
  ) {}

  /** A value from the answer as a message quotes it: strings in quotes, the request's credentials masked. */
  private show(value: Scalar): Resolved {
    return found(value, typeof value === 'string' ? JSON.stringify(mask(value, this.secrets)) : String(value))
  }

  private bodyJson(): { value: unknown } | null {
    if (this.json === undefined) {
      try {
        this.json = { value: JSON.parse(this.answer.body.toString('utf8')) }
      } catch {
        this.json = null
      }
    }
    return this.json
  }

  private header(name: string): string | undefined {
    const value = this.answer.headers[name.toLowerCase()]
    return Array.isArray(value) ? value.join(', ') : value
  }

  /** The value at a placeholder, `undefined` when it is absent; `missing` says why for a message. */
  private raw(placeholder: Placeholder, text: string): { value: unknown } | { missing: string } {
    switch (placeholder.name) {
      case 'STATUS':
        return { value: this.answer.statusCode }
      case 'RESPONSE_TIME':
        return { value: this.answer.responseTimeMs }
      case 'IP':
        return { value: this.answer.address }
      case 'CONNECTED':
        return { value: true }
      case 'CERTIFICATE_EXPIRATION':
        return {
          value: this.answer.certificateExpiresAt ? Date.parse(this.answer.certificateExpiresAt) - this.answer.now : 0,
        }
      case 'HEADERS': {
        const value = this.header(placeholder.header)
        return value === undefined ? { missing: `${text} not found` } : { value }
      }
      case 'BODY': {
        if (placeholder.path.length === 0) {
          const body = this.answer.body.toString('utf8').trim()
          const json = this.bodyJson()
          return { value: Array.isArray(json?.value) ? json.value : body }
        }
        const json = this.bodyJson()
        if (!json) return { missing: `${text} not found, the body is not JSON` }
        const at = walk(json.value, placeholder.path)
        return at ? at : { missing: `${text} not found` }
      }
    }
  }

  resolve(operand: Operand): Resolved {
    switch (operand.type) {
      case 'literal':
        return found(literalScalar(operand.value))
      case 'has': {
        const raw = this.raw(operand.placeholder, operand.text)
        const rootBody = operand.placeholder.name === 'BODY' && operand.placeholder.path.length === 0
        return found('value' in raw && !(rootBody && raw.value === ''))
      }
      case 'len': {
        const raw = this.raw(operand.placeholder, operand.text)
        return 'value' in raw ? found(lengthOf(raw.value)) : { found: false, shown: raw.missing }
      }
      case 'placeholder': {
        const raw = this.raw(operand.placeholder, operand.text)
        if (!('value' in raw)) return { found: false, shown: raw.missing }
        if (operand.placeholder.name === 'CERTIFICATE_EXPIRATION') {
          const ms = raw.value as number
          return found(ms, this.answer.certificateExpiresAt ? formatDuration(ms) : '0 (no certificate)')
        }
        if (operand.placeholder.name === 'IP') return found(raw.value as string, raw.value as string)
        return this.show(scalarOf(raw.value))
      }
      case 'pat':
      case 'any':
        return { found: false, shown: operand.text }
    }
  }
}

const literalScalar = (literal: Literal): Scalar => (literal.kind === 'duration' ? literal.ms : literal.value)

function equal(a: Scalar, b: Scalar): boolean {
  const x = asNumber(a)
  const y = asNumber(b)
  if (x !== undefined && y !== undefined) return x === y
  return asText(a) === asText(b)
}

/** Gatus's pat(): `*` is any run of characters, `?` one character; everything else literal. */
function wildcardMatches(pattern: string, text: string): boolean {
  const source = [...pattern]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`, 's').test(text)
}

/** Whether `value` matches an operand that may be pat() or any(); `undefined` when the operand is neither. */
function matches(operand: Operand, value: Scalar): boolean | undefined {
  if (operand.type === 'pat') return wildcardMatches(operand.pattern, asText(value))
  if (operand.type === 'any') return operand.values.some((literal) => equal(value, literalScalar(literal)))
  return undefined
}

function holds(condition: Condition, left: Scalar, right: Scalar): boolean | 'not a number' {
  const { comparator } = condition
  if (comparator === '==' || comparator === '!=') {
    const same = matches(condition.left, right) ?? matches(condition.right, left) ?? equal(left, right)
    return comparator === '==' ? same : !same
  }
  const x = asNumber(left)
  const y = asNumber(right)
  if (x === undefined || y === undefined) return 'not a number'
  if (comparator === '<') return x < y
  if (comparator === '<=') return x <= y
  if (comparator === '>') return x > y
  return x >= y
}

/** Why a condition does not hold, quoting what the answer had; undefined when it holds. */
function failure(condition: Condition, reader: AnswerReader): string | undefined {
  const sides = [condition.left, condition.right]
  const [left, right] = sides.map((operand) => reader.resolve(operand)) as [Resolved, Resolved]
  const absent = [left, right].find((side, index) => !side.found && readsAnswer(sides[index]!))
  if (absent) return absent.shown
  const verdict = holds(condition, left.found ? left.value : '', right.found ? right.value : '')
  if (verdict === true) return undefined
  const read = sides.flatMap((operand, index) =>
    readsAnswer(operand) ? [{ operand, side: [left, right][index]! }] : [],
  )
  const suffix = verdict === 'not a number' ? ', not a number' : ''
  if (read.length === 1) return `was ${read[0]!.side.shown}${suffix}`
  return `${read.map(({ operand, side }) => `${operand.text} was ${side.shown}`).join(', ')}${suffix}`
}

/**
 * The first condition that does not hold, as "<condition>: <what the answer had>", or undefined when
 * all hold. `secrets` (the request's credentials) are masked, since an answer may echo them back.
 */
export function conditionProblem(conditions: readonly string[], answer: Answer, secrets: readonly string[] = []) {
  let parsed: Condition[]
  try {
    parsed = parseConditions(conditions)
  } catch (error) {
    if (error instanceof ConditionListError) return error.message
    throw error
  }
  const reader = new AnswerReader(answer, secrets)
  for (const condition of parsed) {
    const reason = failure(condition, reader)
    if (reason !== undefined) return truncateText(mask(`${condition.text}: ${reason}`, secrets), 2000)
  }
  return undefined
}

function mask(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length > 0)
    .reduce((masked, secret) => masked.replaceAll(secret, '***'), text)
}
