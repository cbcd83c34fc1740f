import { BROWSER_RUN_LIMITS } from '@guard/shared/browser-run'

/**
 * Replaces every secret value in a text with `[secret NAME]`, longest value first so a secret
 * containing another is not half-replaced, then bounds the text's length.
 */
export function redactor(secrets: Record<string, string>): (text: string) => string {
  const pairs = Object.entries(secrets)
    .filter(([, value]) => value.length > 0)
    .sort(([, a], [, b]) => b.length - a.length)
  return (text) => {
    let redacted = text
    for (const [name, value] of pairs) redacted = redacted.split(value).join(`[secret ${name}]`)
    return redacted.length > BROWSER_RUN_LIMITS.text ? `${redacted.slice(0, BROWSER_RUN_LIMITS.text)}…` : redacted
  }
}
