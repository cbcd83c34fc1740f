import type { GuardDocument } from '@guard/shared/config-as-code'
import type { Caller, CollectorContext } from '../../context.ts'
import type { ConfigKind, CurrentObject, Fields, KindAdapter, MonitorConfigKind, References } from './kind.ts'
import { MONITOR_CONFIG_KINDS } from './kind.ts'
import { domainAdapter, heartbeatAdapter, serviceAdapter, syntheticAdapter } from './kinds/monitors.ts'
import { channelAdapter, routeAdapter } from './kinds/notifications.ts'
import { groupAdapter, tagAdapter } from './kinds/organizing.ts'
import { maintenanceAdapter, statusPageAdapter } from './kinds/pages.ts'

/** Every kind a document covers, in the order apply creates them (each may name those before it: routes name monitors). */
export const ADAPTERS: readonly KindAdapter[] = [
  tagAdapter,
  groupAdapter,
  channelAdapter,
  domainAdapter,
  serviceAdapter,
  heartbeatAdapter,
  syntheticAdapter,
  routeAdapter,
  maintenanceAdapter,
  statusPageAdapter,
]

export interface KeyRow {
  kind: ConfigKind
  key: string
  object_id: string
  managed_by_code: boolean
  secret_hash: string | null
}

/** An object of the organization with the key that matches it to a document entry. */
export interface KeyedObject extends CurrentObject {
  key: string
  /** Its config_keys row; undefined while it has only a derived key. */
  row: KeyRow | undefined
}

export interface OrganizationState {
  organizationId: string
  objects: Map<ConfigKind, KeyedObject[]>
  references: References
  /** Records an object apply created, so later entries can name it. */
  remember: (kind: ConfigKind, key: string, objectId: string) => void
}

/** A key from a name: lowercase letters, digits, dots, underscores and hyphens, as the document allows. */
export function keyFromName(name: string, fallback: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '')
    .slice(0, 48)
  return slug === '' ? fallback : slug
}

/**
 * The organization's objects of every kind, each with its key: the one config_keys holds, else
 * the document entry of the same natural name (tags), else one derived from its name, made
 * unique with the end of its id. Derivation is stable, so export and plan agree without a write.
 */
export async function readState({
  ctx,
  caller,
  document,
}: {
  ctx: CollectorContext
  caller: Caller
  document: GuardDocument | undefined
}): Promise<OrganizationState> {
  const organizationId = caller.organizationId
  const [{ rows }, ...lists] = await Promise.all([
    ctx.sql.query<KeyRow>(
      'SELECT kind, key, object_id, managed_by_code, secret_hash FROM monitoring.config_keys WHERE organization_id = $1',
      [organizationId],
    ),
    ...ADAPTERS.map((adapter) => adapter.read(ctx, caller)),
  ])
  const objects = new Map<ConfigKind, KeyedObject[]>()
  const keyById = new Map<string, string>()
  const idByKey = new Map<string, string>()
  const at = (kind: ConfigKind, value: string) => `${kind}\u0000${value}`

  // Monitor keys share one namespace: dependencies, components and windows name any kind.
  const takenIn = new Map<string, Set<string>>()
  const taken = (kind: ConfigKind) => {
    const space = (MONITOR_CONFIG_KINDS as readonly string[]).includes(kind) ? 'monitor' : kind
    const set = takenIn.get(space) ?? new Set<string>()
    takenIn.set(space, set)
    return set
  }
  const sorted = ADAPTERS.map((adapter, index) => ({
    adapter,
    current: [...lists[index]!].sort((a, b) => (a.objectId < b.objectId ? -1 : 1)),
    byObject: new Map(rows.filter((row) => row.kind === adapter.kind).map((row) => [row.object_id, row])),
  }))
  for (const { adapter, current, byObject } of sorted) {
    const keyed: KeyedObject[] = []
    for (const object of current) {
      const row = byObject.get(object.objectId)
      if (!row) continue
      keyed.push({ ...object, key: row.key, row })
      taken(adapter.kind).add(row.key)
    }
    objects.set(adapter.kind, keyed)
  }
  for (const { adapter, current, byObject } of sorted) {
    const keyed = objects.get(adapter.kind)!
    const used = taken(adapter.kind)
    const entries = (document?.[adapter.list] ?? []) as Fields[]
    const byName = new Map(entries.map((entry) => [adapter.naturalName?.(entry), String(entry.id)]))
    for (const object of current) {
      if (byObject.has(object.objectId)) continue
      const named = adapter.naturalName ? byName.get(object.name) : undefined
      let key = named && !used.has(named) ? named : keyFromName(object.name, adapter.kind)
      if (used.has(key)) key = `${key.slice(0, 48)}-${keyFromName(object.objectId.slice(-8), 'x')}`
      keyed.push({ ...object, key, row: undefined })
      used.add(key)
    }
    for (const object of keyed) {
      keyById.set(at(adapter.kind, object.objectId), object.key)
      idByKey.set(at(adapter.kind, object.key), object.objectId)
    }
  }

  const tagNames = new Map((document?.tags ?? []).map((tag) => [tag.id, tag.name ?? tag.id]))
  const tagKeys = new Map<string, string>()
  for (const tag of objects.get('tag') ?? []) tagKeys.set(tag.name, tag.key)
  for (const [key, name] of tagNames) tagKeys.set(name, key)

  const references: References = {
    idOf: (kind, key) => idByKey.get(at(kind, key)),
    keyOf: (kind, id) => keyById.get(at(kind, id)),
    monitorOf: (key) => {
      for (const kind of MONITOR_CONFIG_KINDS) {
        const id = idByKey.get(at(kind, key))
        if (id) return { kind: kind as MonitorConfigKind, id }
      }
      return undefined
    },
    tagName: (key) => tagNames.get(key) ?? key,
    tagKey: (name) => tagKeys.get(name) ?? keyFromName(name, 'tag'),
  }
  return {
    organizationId,
    objects,
    references,
    remember: (kind, key, objectId) => {
      idByKey.set(at(kind, key), objectId)
      keyById.set(at(kind, objectId), key)
    },
  }
}
