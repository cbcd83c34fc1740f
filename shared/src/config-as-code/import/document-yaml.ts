import { Document } from 'yaml'

/** The lists of guard.yaml in the order apply creates them, which is also the order a reader follows references. */
const LISTS = [
  'tags',
  'groups',
  'channels',
  'routes',
  'domains',
  'services',
  'heartbeats',
  'synthetics',
  'maintenance',
  'statusPages',
] as const

/**
 * An imported document as guard.yaml text: `version` first, then the lists that have entries,
 * under a comment saying where it came from.
 */
export function documentYaml(
  document: { version: number } & Partial<Record<string, unknown>>,
  comment: string,
): string {
  const ordered: Record<string, unknown> = { version: document.version }
  for (const list of LISTS) {
    const entries = document[list]
    if (Array.isArray(entries) && entries.length > 0) ordered[list] = entries
  }
  // Entries may share a list (a window's monitors on each weekday): written out each time, never as YAML aliases.
  const yaml = new Document(ordered, { aliasDuplicateObjects: false })
  yaml.commentBefore = ` ${comment.split('\n').join('\n ')}`
  return yaml.toString({ lineWidth: 0 })
}
