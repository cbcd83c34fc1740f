import type { ImportContext } from './context.ts'
import { idAllocator } from './keys.ts'
import type { KumaMonitorTag, KumaTag } from './source.ts'

export interface TagEntry {
  id: string
  name: string
  color?: string
}

export interface MappedTags {
  tags: TagEntry[]
  /** Source monitor id → ids of its tag entries. */
  tagsOf(monitorId: number): string[]
}

/** Guard's tag key: 1 to 50 letters, digits, _ . / or -, from a letter or digit (lower case once normalised). */
const tagKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_./-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 50)

/**
 * Uptime Kuma's tags as Guard tags: a tag is `key`, with a value `key:value` (Guard's form of
 * Uptime Kuma's "Team: web"); each one used is an entry of its own, with the key's colour.
 */
export function mapTags(tags: KumaTag[], monitorTags: KumaMonitorTag[], context: ImportContext): MappedTags {
  const entries = new Map<string, TagEntry>()
  const tagId = idAllocator('tag')
  const keys = new Map<number, { key: string; color?: string }>()
  for (const tag of tags) {
    const key = tagKey(tag.name)
    if (!key) {
      context.leave('tag', tag.name, 'its name makes no Guard tag key (letters, digits, _ . / -)')
      continue
    }
    const color = tag.color && /^#[0-9a-fA-F]{6}$/.test(tag.color) ? tag.color.toLowerCase() : undefined
    if (tag.color && !color) context.leave('tag', `${tag.name}: colour`, `"${tag.color}" is not a #rrggbb colour`)
    keys.set(tag.id, { key, ...(color ? { color } : {}) })
  }
  const entryOf = (name: string, color: string | undefined) => {
    const existing = entries.get(name)
    if (existing) return existing.id
    const entry: TagEntry = { id: tagId(name.replace(':', '-')), name, ...(color ? { color } : {}) }
    entries.set(name, entry)
    return entry.id
  }
  for (const { key, color } of keys.values()) entryOf(key, color)
  const byMonitor = new Map<number, string[]>()
  for (const link of monitorTags) {
    const tag = keys.get(link.tag_id)
    if (!tag) continue
    const value = link.value
      ?.replace(/[,\p{Cc}]/gu, ' ')
      .trim()
      .slice(0, 100)
    const id = entryOf(value ? `${tag.key}:${value}` : tag.key, tag.color)
    const list = byMonitor.get(link.monitor_id) ?? []
    if (!list.includes(id)) list.push(id)
    byMonitor.set(link.monitor_id, list)
  }
  return { tags: [...entries.values()], tagsOf: (monitorId) => byMonitor.get(monitorId) ?? [] }
}
