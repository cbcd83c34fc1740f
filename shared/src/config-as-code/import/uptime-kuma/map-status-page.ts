import { RESERVED_STATUS_PAGE_SLUGS, STATUS_PAGE_SLUG } from '../../../contracts/status-page-slug.ts'
import type { ImportContext } from './context.ts'
import { idAllocator } from './keys.ts'
import type { KumaPageSection, KumaStatusPage } from './source.ts'

type Entry = { id: string } & Record<string, unknown>

const THEMES = new Set(['light', 'dark', 'auto'])

/** Page settings Guard's status pages have no field for, reported when set. */
const DROPPED: Array<[keyof KumaStatusPage, string]> = [
  ['footer_text', 'footer text'],
  ['custom_css', 'custom CSS'],
  ['password', 'password protection'],
  ['analytics_id', 'analytics'],
  ['google_analytics_tag_id', 'analytics'],
]

/**
 * Status pages with their monitors as components in Uptime Kuma's order; its sections (named
 * lists of monitors) are flattened into that order.
 */
export function mapStatusPages(
  pages: KumaStatusPage[],
  sections: KumaPageSection[],
  domains: Array<[number, string]>,
  monitorIds: Map<number, string>,
  context: ImportContext,
): Entry[] {
  const pageId = idAllocator('status-page')
  const entries: Entry[] = []
  for (const page of pages) {
    let slug = page.slug
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    if (RESERVED_STATUS_PAGE_SLUGS.includes(slug)) {
      context.leave(
        'status page',
        `${page.title}: slug`,
        `Guard keeps "${slug}" for itself; the page is at ${slug}-page`,
      )
      slug = `${slug}-page`
    }
    if (!STATUS_PAGE_SLUG.test(slug) || slug.length < 3 || slug.length > 64) {
      context.leave(
        'status page',
        page.title,
        `slug "${page.slug}" is not a Guard slug (3 to 64 letters, digits, hyphens)`,
      )
      continue
    }
    const components: Array<{ monitor: string }> = []
    const pageSections = sections.filter((section) => section.status_page_id === page.id)
    for (const section of pageSections) {
      for (const monitor of section.monitorIds) {
        const id = monitorIds.get(monitor)
        if (id && !components.some((component) => component.monitor === id)) components.push({ monitor: id })
      }
    }
    if (pageSections.length > 1) {
      context.leave(
        'status page',
        `${page.title}: sections`,
        `sections ${pageSections.map((section) => `"${section.name}"`).join(', ')} are one list of components in Guard`,
      )
    }
    const entry: Entry = { id: pageId(slug), name: page.title.slice(0, 100), slug, components }
    if (page.description) entry.description = page.description.slice(0, 2000)
    if (page.published) entry.isPublic = true
    if (page.theme && THEMES.has(page.theme)) entry.theme = page.theme
    const dropped = [...new Set(DROPPED.filter(([field]) => page[field]).map(([, label]) => label))]
    const pageDomains = domains.filter(([id]) => id === page.id).map(([, domain]) => domain)
    if (pageDomains.length > 0) dropped.push(`custom domain ${pageDomains.join(', ')}`)
    if (dropped.length > 0) {
      context.leave(
        'status page',
        `${page.title}: ${dropped.join(', ')}`,
        'set in the console after apply, or not in Guard',
      )
    }
    entries.push(entry)
  }
  return entries
}
