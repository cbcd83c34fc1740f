/** A `{{name}}` no earlier step extracted, or a `{{secrets.NAME}}` the monitor does not hold. */
export class FlowVariableError extends Error {
  override name = 'FlowVariableError'
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*\}\}/g

/** Replaces `{{name}}` with an extracted variable and `{{secrets.NAME}}` with a secret. */
export function interpolate(
  text: string,
  variables: ReadonlyMap<string, string>,
  secrets: Readonly<Record<string, string>>,
): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = name.startsWith('secrets.') ? secrets[name.slice('secrets.'.length)] : variables.get(name)
    if (value === undefined) throw new FlowVariableError(`{{${name}}} is not set`)
    return value
  })
}

/** Every secret value (also as a URL encodes it) replaced by `***`, so no message a run reports quotes one. */
export function redact(text: string, secrets: Readonly<Record<string, string>>): string {
  let redacted = text
  for (const value of Object.values(secrets)) {
    if (value.length === 0) continue
    for (const form of new Set([value, encodeURIComponent(value), encodeURI(value)])) {
      redacted = redacted.split(form).join('***')
    }
  }
  return redacted
}
