/**
 * Document ids and secret placeholders for imported objects. Ids follow the document's rule
 * (`^[a-z0-9][a-z0-9._-]{0,62}$`), derived from names so a review reads them, and stay unique
 * within their namespace (monitors share one across kinds).
 */
export function idAllocator(fallback: string) {
  const taken = new Set<string>()
  return (name: string): string => {
    const base =
      name
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[^a-z0-9]+/, '')
        .replace(/-+$/, '')
        .slice(0, 56) || fallback
    let id = base
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
    taken.add(id)
    return id
  }
}

/** A secret the importer does not write: its `${env:…}` reference and what it was in Uptime Kuma. */
export interface SecretReference {
  env: string
  /** The document entry and field it stands for, e.g. `channels.ops-slack.config.webhookUrl`. */
  field: string
}

/** `GUARD_CHANNEL_OPS_SLACK_WEBHOOK_URL`, as `guard export` names its placeholders (GUARD_<KIND>_<ID>_<FIELD>). */
export function secretReference(kind: string, id: string, field: string, path: string): SecretReference {
  const part = (value: string) =>
    value
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
  return { env: `GUARD_${part(kind)}_${part(id)}_${part(field)}`, field: path }
}

export const placeholder = (secret: SecretReference) => `\${env:${secret.env}}`
