/** A document `id` is `^[a-z0-9][a-z0-9._-]{0,62}$`, unique within its list. */
const MAX_ID = 63

/** `Checkout API (EU)` → `checkout-api-eu`; `item` when nothing is left. */
export function slugId(text: string): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, MAX_ID)
    .replace(/[-._]+$/, '')
  return slug || 'item'
}

/**
 * Hands out ids unique within one namespace, in the order asked, so the same source always gives
 * the same ids: the first candidate free, else the last one with `-2`, `-3`… appended.
 */
export function idAllocator() {
  const taken = new Set<string>()
  return (...candidates: string[]): string => {
    const slugs = candidates.map(slugId)
    const free = slugs.find((slug) => !taken.has(slug))
    if (free !== undefined) {
      taken.add(free)
      return free
    }
    const base = (slugs.at(-1) ?? 'item').slice(0, MAX_ID - 4)
    for (let n = 2; ; n++) {
      const id = `${base}-${n}`
      if (!taken.has(id)) {
        taken.add(id)
        return id
      }
    }
  }
}

/** Entries made on first mention, such as a group or a tag several monitors name: `{ id, name }`. */
export function namedEntries() {
  const allocate = idAllocator()
  const ids = new Map<string, string>()
  const entries: Array<{ id: string; name: string }> = []
  return {
    entries,
    idOf(name: string): string {
      let id = ids.get(name)
      if (id === undefined) {
        id = allocate(name)
        ids.set(name, id)
        entries.push({ id, name })
      }
      return id
    },
  }
}
