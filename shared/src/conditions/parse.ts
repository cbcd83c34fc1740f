/**
 * The parser of HTTP `conditions` (README "Conditions"), in the spirit of Gatus's:
 *
 *   condition   = operand comparator operand
 *   comparator  = "==" | "!=" | "<=" | ">=" | "<" | ">"
 *   operand     = placeholder | "len(" placeholder ")" | "has(" placeholder ")"
 *               | "pat(" pattern ")" | "any(" value { "," value } ")" | value
 *   placeholder = "[STATUS]" | "[RESPONSE_TIME]" | "[IP]" | "[CONNECTED]" | "[CERTIFICATE_EXPIRATION]"
 *               | "[BODY]" { "." key | "[" index "]" } | "[HEADERS]." header-name
 *   value       = duration (48h, 1h30m, 500ms) | number | "quoted" | 'quoted' | bare-word
 *
 * Hand-written recursive descent: the grammar is small, and no maintained JavaScript library parses
 * Gatus's (Gatus itself splits the text on " == " and friends rather than parsing it). The parser
 * never throws anything but a ConditionSyntaxError, which names the column and what was expected.
 */
import {
  COMPARATORS,
  type Comparator,
  type Condition,
  type Literal,
  type Operand,
  type PathStep,
  type Placeholder,
  readsAnswer,
} from './ast.ts'
import { parseDuration } from './duration.ts'

export class ConditionSyntaxError extends Error {
  constructor(
    readonly reason: string,
    /** 1-based, as editors count. */
    readonly column: number,
  ) {
    super(`${reason} at column ${column}`)
    this.name = 'ConditionSyntaxError'
  }
}

export class ConditionListError extends Error {
  constructor(
    /** 0-based, as in the array. */
    readonly index: number,
    readonly syntax: ConditionSyntaxError,
  ) {
    super(`condition ${index + 1}: ${syntax.message}`)
    this.name = 'ConditionListError'
  }
}

const PLACEHOLDER_NAMES = ['STATUS', 'RESPONSE_TIME', 'IP', 'CONNECTED', 'CERTIFICATE_EXPIRATION', 'BODY', 'HEADERS']
const PLACEHOLDER_LIST = PLACEHOLDER_NAMES.map((name) => `[${name}]`).join(', ')
/** Characters that end a bare word; a value holding one is quoted. */
const BARE_STOP = new Set([' ', '\t', '\n', '\r', '(', ')', '[', ']', ',', '"', "'", '<', '>', '=', '!'])
const KEY_STOP = new Set([...BARE_STOP, '.'])
const HEADER_NAME = /^[!#$%&*+^_`|~0-9A-Za-z-]+/
const NUMBER = /^-?\d+(\.\d+)?$/
const NUMERIC_PLACEHOLDERS = new Set(['STATUS', 'RESPONSE_TIME', 'CERTIFICATE_EXPIRATION', 'BODY', 'HEADERS'])

class Parser {
  private at = 0

  constructor(private readonly source: string) {}

  condition(): Condition {
    this.skipSpace()
    const left = this.operand()
    this.skipSpace()
    const comparator = this.comparator(left)
    this.skipSpace()
    if (this.done()) this.fail(`expected a value after ${comparator}`)
    const right = this.operand()
    this.skipSpace()
    if (!this.done()) this.fail(`unexpected ${JSON.stringify(this.peek())} after ${right.text}`)
    const condition = { text: this.source.trim(), left, comparator, right }
    checkMeaning(condition)
    return condition
  }

  private comparator(left: Operand): Comparator {
    const found = COMPARATORS.find((comparator) => this.source.startsWith(comparator, this.at))
    if (!found) this.fail(`expected a comparator (${COMPARATORS.join(' ')}) after ${left.text}`)
    this.at += found.length
    return found
  }

  private operand(): Operand {
    const start = this.at
    const column = start + 1
    const finish = <T extends object>(fields: T) => ({ ...fields, text: this.source.slice(start, this.at), column })
    if (this.peek() === '[') return finish({ type: 'placeholder' as const, placeholder: this.placeholder() })
    const name = /^([a-zA-Z_]+)\(/.exec(this.source.slice(this.at))?.[1]
    if (name !== undefined) {
      this.at += name.length + 1
      this.skipSpace()
      const operand = this.functionCall(name, start)
      this.skipSpace()
      this.expect(')', `expected ) to close ${name}(`)
      return finish(operand)
    }
    if (this.done()) this.fail('expected a placeholder, a function or a value')
    return finish({ type: 'literal' as const, value: this.literal(BARE_STOP) })
  }

  private functionCall(name: string, start: number) {
    switch (name) {
      case 'len':
      case 'has': {
        const argumentColumn = this.at + 1
        if (this.peek() !== '[') this.fail(`expected [BODY] or [HEADERS] in ${name}()`)
        const placeholder = this.placeholder()
        if (placeholder.name !== 'BODY' && placeholder.name !== 'HEADERS') {
          throw new ConditionSyntaxError(
            `${name}() takes [BODY] or [HEADERS], not [${placeholder.name}]`,
            argumentColumn,
          )
        }
        return { type: name, placeholder }
      }
      case 'pat': {
        const pattern = this.peek() === '"' || this.peek() === "'" ? this.quoted() : this.rawUntil(')')
        if (pattern === '') this.fail('expected a pattern in pat()')
        return { type: 'pat' as const, pattern }
      }
      case 'any': {
        const values: Literal[] = []
        const stop = new Set([',', ')'])
        for (;;) {
          this.skipSpace()
          if (this.peek() === ',' || this.peek() === ')' || this.done()) this.fail('expected a value in any()')
          values.push(this.literal(stop, true))
          this.skipSpace()
          if (this.peek() !== ',') break
          this.at++
        }
        return { type: 'any' as const, values }
      }
      default:
        throw new ConditionSyntaxError(`unknown function ${name}(), expected len, has, pat or any`, start + 1)
    }
  }

  private placeholder(): Placeholder {
    const column = this.at + 1
    this.at++
    const name = /^[A-Za-z_]*/.exec(this.source.slice(this.at))![0]
    this.at += name.length
    const upper = name.toUpperCase()
    if (!PLACEHOLDER_NAMES.includes(upper)) {
      throw new ConditionSyntaxError(`unknown placeholder [${name}], expected one of ${PLACEHOLDER_LIST}`, column)
    }
    this.expect(']', `expected ] to close [${name}`)
    if (upper === 'BODY') return { name: 'BODY', path: this.bodyPath() }
    if (upper === 'HEADERS') {
      this.expect('.', 'expected .Name after [HEADERS], such as [HEADERS].Content-Type')
      const header = HEADER_NAME.exec(this.source.slice(this.at))?.[0]
      if (!header) this.fail('expected a header name after [HEADERS].')
      this.at += header.length
      return { name: 'HEADERS', header }
    }
    return { name: upper } as Placeholder
  }

  private bodyPath(): PathStep[] {
    const path: PathStep[] = []
    for (;;) {
      if (this.peek() === '.') {
        this.at++
        const key = this.rawWhile((char) => !KEY_STOP.has(char))
        if (key === '') this.fail('expected a key after .')
        path.push({ key })
      } else if (this.peek() === '[') {
        this.at++
        const digits = this.rawWhile((char) => char >= '0' && char <= '9')
        if (digits === '') this.fail('expected an array index such as [0]')
        this.expect(']', 'expected ] to close the array index')
        path.push({ index: Number(digits) })
      } else {
        return path
      }
    }
  }

  /** A quoted string, or a bare word ending at `stop` (trimmed inside any(), where spaces may appear). */
  private literal(stop: Set<string>, spaced = false): Literal {
    if (this.peek() === '"' || this.peek() === "'") return { kind: 'text', value: this.quoted() }
    const column = this.at + 1
    const word = spaced
      ? this.rawWhile((char) => !stop.has(char) && char !== '"' && char !== "'").trim()
      : this.rawWhile((char) => !stop.has(char))
    if (word === '') throw new ConditionSyntaxError('expected a placeholder, a function or a value', column)
    const ms = parseDuration(word)
    if (ms !== undefined) return { kind: 'duration', ms }
    if (NUMBER.test(word)) return { kind: 'number', value: Number(word) }
    return { kind: 'text', value: word }
  }

  private quoted(): string {
    const quote = this.peek()
    const column = this.at + 1
    this.at++
    let value = ''
    while (!this.done() && this.peek() !== quote) {
      if (this.peek() === '\\' && this.at + 1 < this.source.length) this.at++
      value += this.peek()
      this.at++
    }
    if (this.done()) throw new ConditionSyntaxError(`expected a closing ${quote} for the string opened`, column)
    this.at++
    return value
  }

  private rawUntil(end: string): string {
    return this.rawWhile((char) => char !== end).trim()
  }

  private rawWhile(keep: (char: string) => boolean): string {
    const start = this.at
    while (!this.done() && keep(this.peek())) this.at++
    return this.source.slice(start, this.at)
  }

  private expect(char: string, reason: string) {
    if (this.peek() !== char) this.fail(reason)
    this.at++
  }

  private skipSpace() {
    while (!this.done() && /\s/.test(this.peek())) this.at++
  }

  private peek(): string {
    return this.source[this.at] ?? ''
  }

  private done() {
    return this.at >= this.source.length
  }

  private fail(reason: string): never {
    throw new ConditionSyntaxError(reason, this.at + 1)
  }
}

/** What parses but cannot mean anything: no placeholder, an ordering of text, pat() or any() on both sides. */
function checkMeaning({ left, comparator, right }: Condition) {
  const matcher = (operand: Operand) => operand.type === 'pat' || operand.type === 'any'
  if (matcher(left) && matcher(right)) {
    throw new ConditionSyntaxError('pat() and any() go on one side only', right.column)
  }
  if (!readsAnswer(left) && !readsAnswer(right)) {
    throw new ConditionSyntaxError('expected a placeholder such as [STATUS] on one side', left.column)
  }
  if (comparator === '==' || comparator === '!=') return
  for (const operand of [left, right]) {
    if (!isNumeric(operand)) {
      throw new ConditionSyntaxError(
        `${comparator} compares numbers and durations, ${operand.text} is not one`,
        operand.column,
      )
    }
  }
}

function isNumeric(operand: Operand): boolean {
  switch (operand.type) {
    case 'placeholder':
      return NUMERIC_PLACEHOLDERS.has(operand.placeholder.name)
    case 'len':
      return true
    case 'literal':
      return operand.value.kind !== 'text'
    default:
      return false
  }
}

/** One condition's syntax tree; throws a ConditionSyntaxError naming the column. */
export function parseCondition(text: string): Condition {
  return new Parser(text).condition()
}

/** Every condition parsed; throws a ConditionListError naming the condition (1-based) and the column. */
export function parseConditions(texts: readonly string[]): Condition[] {
  return texts.map((text, index) => {
    try {
      return parseCondition(text)
    } catch (error) {
      if (error instanceof ConditionSyntaxError) throw new ConditionListError(index, error)
      throw error
    }
  })
}
