import { GuardError } from '@guard/shared'
import { MAX_GROUP_DEPTH } from './schemas.ts'

export interface TreeLink {
  id: string
  parentId: string | null
}

/** How many levels a group sits at: 1 for a top-level group. */
function depthOf(byId: Map<string, TreeLink>, id: string): number {
  let depth = 0
  const seen = new Set<string>()
  for (let at: string | null = id; at !== null && !seen.has(at); at = byId.get(at)?.parentId ?? null) {
    seen.add(at)
    depth += 1
  }
  return depth
}

/** How many levels a group and its descendants span: 1 for a group without children. */
function heightOf(links: readonly TreeLink[], id: string, seen = new Set<string>()): number {
  seen.add(id)
  const children = links.filter((link) => link.parentId === id && !seen.has(link.id))
  return 1 + Math.max(0, ...children.map((child) => heightOf(links, child.id, seen)))
}

/**
 * Refuses to put group `id` (null: a new group) under `parentId` when the parent is the group itself
 * or one of its descendants, or when the group's subtree would then reach below the depth limit.
 */
export function checkPlacement(links: readonly TreeLink[], id: string | null, parentId: string | null): void {
  if (parentId === null) return
  const byId = new Map(links.map((link) => [link.id, link]))
  if (!byId.has(parentId)) throw new GuardError('VALIDATION_ERROR', 'parentId: no such group in the organization')
  if (id !== null) {
    const seen = new Set<string>()
    for (let at: string | null = parentId; at !== null && !seen.has(at); at = byId.get(at)?.parentId ?? null) {
      if (at === id) throw new GuardError('VALIDATION_ERROR', 'parentId: a group cannot be its own ancestor')
      seen.add(at)
    }
  }
  const height = id === null ? 1 : heightOf(links, id)
  if (depthOf(byId, parentId) + height > MAX_GROUP_DEPTH) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `parentId: groups nest at most ${MAX_GROUP_DEPTH} levels deep, and this would make ${depthOf(byId, parentId) + height}`,
    )
  }
}
