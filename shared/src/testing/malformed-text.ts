import fc from 'fast-check'

/**
 * Text that is not well-formed Unicode, in each form a request can carry it, for the fuzz tests
 * that hold every route to a 4xx for it.
 */

/** Strings with a lone high or low surrogate, as a JSON `\ud83d` escape or an in-process header puts them. */
export const LONE_SURROGATES = ['\ud83d', '\udc00', 'a\ud83db', 'x\ude00', '\ud83d\ud83d'] as const

/**
 * Percent-encoded bytes that are not UTF-8: a surrogate encoded on its own (the CESU-8/WTF-8 form),
 * overlong encodings, a byte UTF-8 never uses and a truncated sequence.
 */
export const MALFORMED_PERCENT = ['%ED%A0%BD', '%ED%B0%80', '%C0%AF', '%E0%80%AF', '%FF', '%E2%82'] as const

/** The same byte sequences raw, as a body or a header (Node hands header bytes over as Latin-1) carries them. */
export const MALFORMED_BYTES = [
  [0xed, 0xa0, 0xbd],
  [0xed, 0xb0, 0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xff],
  [0xe2, 0x82],
] as const

export const loneSurrogate = fc
  .tuple(fc.string({ maxLength: 4 }), fc.constantFrom(...LONE_SURROGATES), fc.string({ maxLength: 4 }))
  .map(([before, lone, after]) => `${before}${lone}${after}`)

export const malformedPercent = fc.constantFrom(...MALFORMED_PERCENT).map((bad) => `a${bad}b`)

/** A header value Node would hand over for malformed bytes (Latin-1), or one only an in-process request can carry. */
export const malformedHeaderValue = fc.oneof(
  fc.constantFrom(...MALFORMED_BYTES).map((bytes) => `a${Buffer.from(bytes).toString('latin1')}b`),
  loneSurrogate,
)

/** Paths to every string in `value` (object keys and array indexes). */
function stringPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [path]
  if (Array.isArray(value)) return value.flatMap((inner, index) => stringPaths(inner, [...path, index]))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => stringPaths(inner, [...path, key]))
  }
  return []
}

function replaceAt(value: unknown, path: Array<string | number>, replace: (text: string) => unknown): unknown {
  const [head, ...rest] = path
  if (head === undefined) return replace(value as string)
  if (Array.isArray(value))
    return value.map((inner, index) => (index === head ? replaceAt(inner, rest, replace) : inner))
  const record = value as Record<string, unknown>
  return { ...record, [head]: replaceAt(record[head], rest, replace) }
}

// Plain ASCII that JSON.stringify leaves as it is, so the raw bytes can take its place in the text.
const MARK = '@@malformed-bytes@@'

/**
 * `valid` (a body a route accepts) with a lone surrogate inside one of its strings, as a JSON value
 * to stringify, or with malformed UTF-8 bytes inside one as the raw body itself (a Buffer). A
 * body without strings gets a new field, which strict schemas refuse anyway.
 */
export function malformedBodies(valid: unknown): fc.Arbitrary<unknown> {
  const paths = stringPaths(valid)
  const at = paths.length > 0 ? fc.constantFrom(...paths) : fc.constant<Array<string | number>>(['note'])
  const target = paths.length > 0 ? valid : { ...(valid as Record<string, unknown>), note: 'x' }
  const splice = (text: string, bad: string) => `${text.slice(0, 1)}${bad}${text.slice(1)}`
  return fc.oneof(
    fc.tuple(at, loneSurrogate).map(([path, lone]) => replaceAt(target, path, (text) => splice(text, lone))),
    fc.tuple(at, fc.constantFrom(...MALFORMED_BYTES)).map(([path, bytes]) => {
      const [before, after] = JSON.stringify(replaceAt(target, path, (text) => splice(text, MARK))).split(MARK)
      return Buffer.concat([Buffer.from(before ?? ''), Buffer.from(bytes), Buffer.from(after ?? '')])
    }),
  )
}
