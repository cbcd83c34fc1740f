import { stringify } from 'yaml'

/** A document as guard.yaml text: lists in the document's order, long lines left whole. */
export function documentYaml(document: unknown): string {
  return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })
}
