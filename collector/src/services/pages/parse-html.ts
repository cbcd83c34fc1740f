import { truncateText } from '@guard/shared'

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10))
    return entities[entity.toLowerCase()] ?? match
  })

/** The document's <title>, whitespace collapsed, or undefined. */
export function titleOf(html: string): string | undefined {
  const match = html.match(/<title[^>]*>([\s\S]*?)<\/title>/i)
  const title = match ? decode(match[1]!).replace(/\s+/g, ' ').trim() : ''
  return title ? truncateText(title, 500) : undefined
}

const attribute = (tag: string, name: string) =>
  tag
    .match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'))
    ?.slice(1)
    .find((v) => v !== undefined)

/** The href of the page's icon link (rel icon, shortcut icon or apple-touch-icon), if any. */
export function iconHrefOf(html: string): string | undefined {
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? []
    if (rel.includes('icon') || rel.includes('apple-touch-icon')) {
      const href = attribute(tag, 'href')
      if (href) return decode(href)
    }
  }
  return undefined
}
