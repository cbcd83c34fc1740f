/**
 * What every importer (`guard import …`) hands back: a guard.yaml document for review, the parts of
 * the source it could not carry, and the environment variables the document reads where the
 * source held a secret in clear (their values are never written).
 */

/** One document entry: its stable `id` and the REST create body's fields. */
export type DocumentEntry = { id: string } & { [field: string]: unknown }

export interface ImportedDocument {
  version: 1
  tags?: DocumentEntry[]
  groups?: DocumentEntry[]
  channels?: DocumentEntry[]
  domains?: DocumentEntry[]
  services?: DocumentEntry[]
  heartbeats?: DocumentEntry[]
  maintenance?: DocumentEntry[]
}

/** Something of the source the document does not carry: where it is, what it is, why. */
export interface UnmappedItem {
  /** The file it came from. */
  source: string
  /** A path into the source, such as `endpoints["api"].conditions[2]`. */
  item: string
  reason: string
}

/** An environment variable a `${env:…}` placeholder of the document reads. */
export interface SecretReference {
  name: string
  source: string
  item: string
}

export interface ImportResult {
  document: ImportedDocument
  unmapped: UnmappedItem[]
  secrets: SecretReference[]
}

/** The lists of a document in the agreed order, empty ones left out. */
export function assembleDocument(lists: Omit<ImportedDocument, 'version'>): ImportedDocument {
  const document: ImportedDocument = { version: 1 }
  for (const key of ['tags', 'groups', 'channels', 'domains', 'services', 'heartbeats', 'maintenance'] as const) {
    const list = lists[key]
    if (list && list.length > 0) document[key] = list
  }
  return document
}
