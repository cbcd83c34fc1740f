import type { SecretReference } from './import-result.ts'

const WHOLE_PLACEHOLDER = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/

/** `GUARD_<KIND>_<ID>_<FIELD>`, the name export uses for the same secret. */
export function placeholderName(kind: string, id: string, field: string): string {
  return ['GUARD', kind, id, field]
    .join('_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
}

/**
 * Collects the secrets of one import: a value already read from the environment stays as it is;
 * one written in clear becomes a `${env:GUARD_…}` placeholder, so the document never holds it.
 */
export function secretCollector() {
  const references: SecretReference[] = []
  const seen = new Set<string>()
  const note = (name: string, source: string, item: string) => {
    if (seen.has(name)) return
    seen.add(name)
    references.push({ name, source, item })
  }
  return {
    references,
    secret(value: string, at: { kind: string; id: string; field: string; source: string; item: string }): string {
      const whole = WHOLE_PLACEHOLDER.exec(value)
      if (whole) {
        note(whole[1]!, at.source, at.item)
        return value
      }
      const name = placeholderName(at.kind, at.id, at.field)
      note(name, at.source, at.item)
      return `\${env:${name}}`
    },
    /** Records the variables a value that is not a secret reads, so the CLI can list them all. */
    reads(value: string, source: string, item: string) {
      for (const [, name] of value.matchAll(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)) note(name!, source, item)
    },
  }
}
export type SecretCollector = ReturnType<typeof secretCollector>
