import { Document } from 'yaml'
import { DOCUMENT_LISTS } from './document.ts'

/**
 * A document as guard.yaml text: `version` first, then the lists that have entries in the order
 * apply creates them, long lines left whole; `comment` (an import's origin) goes on top.
 */
export function documentYaml(
  document: { version: number } & Partial<Record<string, unknown>>,
  comment?: string,
): string {
  const ordered: Record<string, unknown> = { version: document.version }
  for (const list of DOCUMENT_LISTS) {
    const entries = document[list]
    if (Array.isArray(entries) && entries.length > 0) ordered[list] = entries
  }
  // Entries may share a list (a window's monitors on each weekday): written out each time, never as YAML aliases.
  const yaml = new Document(ordered, { aliasDuplicateObjects: false })
  if (comment) yaml.commentBefore = ` ${comment.split('\n').join('\n ')}`
  return yaml.toString({ lineWidth: 0 })
}
