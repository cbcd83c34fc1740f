import type { SecretReference } from './keys.ts'

/** Something of the source the document does not carry, and why. */
export interface Unmapped {
  /** Where it was: `monitor`, `notification`, `maintenance`, `status page`, `tag`. */
  source: string
  /** Its name in the source, with the field when only a field is left behind (`Shop front: retry interval`). */
  item: string
  reason: string
}

type Entry = { id: string } & Record<string, unknown>

/** The document an importer produces: lists of entries shaped like guard.yaml's (document.ts). */
export interface ImportedDocument {
  version: 1
  tags: Array<{ id: string; name: string; color?: string }>
  groups: Entry[]
  channels: Entry[]
  domains: Entry[]
  services: Entry[]
  heartbeats: Entry[]
  maintenance: Entry[]
  statusPages: Entry[]
}

export interface ImportResult {
  /** What was read, e.g. `Uptime Kuma 2.x database`. */
  origin: string
  document: ImportedDocument
  unmapped: Unmapped[]
  /** Environment variables the document references in place of the source's secrets. */
  secrets: SecretReference[]
}

/** The report printed next to the document: counts, the secrets to provide, what was left behind. */
export function formatReport(result: ImportResult): string {
  const { document } = result
  const counts = (
    ['domains', 'services', 'heartbeats', 'groups', 'channels', 'tags', 'maintenance', 'statusPages'] as const
  )
    .map((list) => `${document[list].length} ${list}`)
    .join(', ')
  const lines = [`Imported from ${result.origin}: ${counts}.`]
  if (result.secrets.length > 0) {
    lines.push('', 'Secrets are not written; set these environment variables before plan/apply:')
    for (const secret of result.secrets) lines.push(`  ${secret.env}  (${secret.field})`)
  }
  if (result.unmapped.length > 0) {
    lines.push('', `Not imported (${result.unmapped.length}):`)
    for (const item of result.unmapped) lines.push(`  ${item.source} "${item.item}": ${item.reason}`)
  }
  return `${lines.join('\n')}\n`
}
