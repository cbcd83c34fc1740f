/**
 * Strings on the bus and in the stores must be well-formed Unicode: PostgreSQL's `json` and
 * ClickHouse refuse a lone surrogate (half of a pair), and one refused row used to stop a whole
 * batch. UTF-8 cannot carry one, so after TextDecoder (which turns invalid bytes into U+FFFD) a
 * lone surrogate can only come from a JSON `\uD8xx`-`\uDFxx` escape, which JSON.stringify writes
 * for exactly that case.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

const repair = (_key: string, value: unknown) => (typeof value === 'string' ? value.toWellFormed() : value)

/** Decodes UTF-8 JSON with every lone surrogate (in values and keys) turned into U+FFFD. */
export function parseWellFormedJson(text: string): unknown {
  if (!SURROGATE_ESCAPE.test(text)) return JSON.parse(text)
  return repairKeys(JSON.parse(text, repair))
}

function repairKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(repairKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.toWellFormed(), repairKeys(inner)]))
}

/**
 * The first `max` UTF-16 code units of `text`, one fewer when the cut would split a surrogate pair:
 * `slice` alone leaves a lone high surrogate that no store accepts.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text.toWellFormed()
  const last = text.charCodeAt(max - 1)
  const cut = last >= 0xd800 && last <= 0xdbff ? max - 1 : max
  return text.slice(0, cut).toWellFormed()
}
