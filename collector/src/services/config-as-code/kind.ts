import type { DocumentList } from '@guard/shared/config-as-code'
import type { Caller, CollectorContext } from '../../context.ts'

/** What config_keys calls each kind of object a document entry can stand for. */
export type ConfigKind =
  | 'tag'
  | 'group'
  | 'channel'
  | 'route'
  | 'domain'
  | 'service'
  | 'heartbeat'
  | 'synthetic'
  | 'maintenance'
  | 'status-page'

export type Fields = Record<string, unknown>

/** Translates between a document's ids and the organization's object ids, for reference fields. */
export interface References {
  idOf: (kind: ConfigKind, key: string) => string | undefined
  keyOf: (kind: ConfigKind, id: string) => string | undefined
  /** The monitor kind and object id of a monitor's document id. */
  monitorOf: (key: string) => { kind: MonitorConfigKind; id: string } | undefined
  /** The tag string monitors carry for a tag entry's id, and back. */
  tagName: (key: string) => string
  tagKey: (name: string) => string
}

export type MonitorConfigKind = 'domain' | 'service' | 'heartbeat' | 'synthetic'
export const MONITOR_CONFIG_KINDS: readonly MonitorConfigKind[] = ['domain', 'service', 'heartbeat', 'synthetic']

/** An object of the organization as a document entry would describe it. */
export interface CurrentObject {
  objectId: string
  /** What a key is derived from when the object has none yet. */
  name: string
  /** Dotted paths of the write-only values it holds, which export writes as environment references. */
  secrets?: readonly string[]
  /** The entry's fields (no id), references written as document ids. */
  fields: (references: References) => Fields
}

/** An entry's fields as plan compares them: the create body's defaults applied, write-only values apart. */
export interface DesiredFields {
  fields: Fields
  secrets: Fields
}

export interface Scope {
  ctx: CollectorContext
  caller: Caller
  references: References
}

/** How plan and apply read, compare and write one kind of object through its service functions. */
export interface KindAdapter {
  kind: ConfigKind
  list: DocumentList
  /** The entries of the document this kind's objects come from (maintenance windows fan out per monitor). */
  read: (ctx: CollectorContext, caller: Caller) => Promise<CurrentObject[]>
  /** Throws a ZodError or GuardError naming the field when the entry is not a valid create body. */
  desired: (entry: Fields, references: References) => DesiredFields
  create: (scope: Scope, desired: DesiredFields) => Promise<string>
  /** `changed` names the fields plan found different, write-only ones included. */
  update: (scope: Scope, objectId: string, changed: readonly string[], desired: DesiredFields) => Promise<void>
  remove: (scope: Scope, objectId: string) => Promise<void>
  /**
   * An entry's natural name, matched with an object's `name` when the object has no key yet (a tag
   * entry and the tag string monitors carry); without it, objects match by their derived key.
   */
  naturalName?: (entry: Fields) => string
  /** Objects prune leaves alone (tags exist while something carries them). */
  neverPruned?: boolean
  /** The current fields as the entry's shape compares them, where an entry may leave parts out. */
  project?: (current: Fields, desired: Fields) => Fields
  /** Fields compared as sets: their order carries no meaning. */
  unordered?: readonly string[]
}
