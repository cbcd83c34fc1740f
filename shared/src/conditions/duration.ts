const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g

/** `48h`, `1h30m`, `500ms` in milliseconds (Go's units plus `d`); undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined
  let ms = 0
  for (const [, amount, unit] of text.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit!]!
  return ms
}

/** Milliseconds in the largest two units, hours at most as Gatus prints them: `47h59m`, `12s`, `250ms`. */
export function formatDuration(ms: number): string {
  if (ms < 0) return `-${formatDuration(-ms)}`
  if (ms < 1000) return `${Math.round(ms)}ms`
  const units: Array<[string, number]> = [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ]
  const parts: string[] = []
  let rest = Math.floor(ms)
  for (const [unit, size] of units) {
    const amount = Math.floor(rest / size)
    rest -= amount * size
    if (amount > 0 || parts.length > 0) parts.push(`${amount}${unit}`)
    if (parts.length === 2) break
  }
  return parts.filter((part) => !part.startsWith('0')).join('') || '0s'
}
