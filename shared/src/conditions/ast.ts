/** The syntax tree of one condition (README "Conditions"); `text` is each part as written, for messages. */

export const COMPARATORS = ['==', '!=', '<=', '>=', '<', '>'] as const
export type Comparator = (typeof COMPARATORS)[number]

/** A step into the JSON body: `.key` or `[index]`. */
export type PathStep = { key: string } | { index: number }

export type Placeholder =
  | { name: 'STATUS' }
  | { name: 'RESPONSE_TIME' }
  | { name: 'IP' }
  | { name: 'CONNECTED' }
  | { name: 'CERTIFICATE_EXPIRATION' }
  | { name: 'BODY'; path: PathStep[] }
  | { name: 'HEADERS'; header: string }

export type Literal =
  | { kind: 'number'; value: number }
  | { kind: 'duration'; ms: number }
  | { kind: 'text'; value: string }

export type Operand = { text: string; column: number } & (
  | { type: 'placeholder'; placeholder: Placeholder }
  | { type: 'len'; placeholder: Placeholder }
  | { type: 'has'; placeholder: Placeholder }
  | { type: 'pat'; pattern: string }
  | { type: 'any'; values: Literal[] }
  | { type: 'literal'; value: Literal }
)

export interface Condition {
  text: string
  left: Operand
  comparator: Comparator
  right: Operand
}

/** Whether an operand reads the check's answer (a placeholder, bare or inside len/has). */
export const readsAnswer = (operand: Operand) =>
  operand.type === 'placeholder' || operand.type === 'len' || operand.type === 'has'

/** Whether a condition reads `[STATUS]`, so it takes over the default expected status. */
export const readsStatus = (condition: Condition) =>
  [condition.left, condition.right].some(
    (operand) => operand.type === 'placeholder' && operand.placeholder.name === 'STATUS',
  )
