import type { Logger, Sql } from '@guard/shared'
import { z } from 'zod'
import { getCatalog } from '../catalog/get.ts'
import { listChangelog } from '../changelog/list.ts'
import { productGuides } from '../docs/products.ts'
import { docBody, readDoc } from '../docs/read.ts'
import { platformLinks } from './links.ts'

export const overviewOutput = z.object({
  name: z.string(),
  summary: z.string().describe('Markdown'),
  products: z.array(z.object({ slug: z.string(), name: z.string() })),
  plans: z.array(z.object({ id: z.string(), name: z.string() })),
  latestReleases: z.array(
    z.object({ app: z.string(), version: z.string(), name: z.string(), createdTime: z.string() }),
  ),
  links: z.record(z.string(), z.string()),
})

export type Overview = z.infer<typeof overviewOutput>

/** What Guard is, in one answer: the overview page, its products, plans and latest release per product. */
export async function getOverview(deps: { sql: Sql; log: Logger; baseUrl: string }): Promise<Overview> {
  const [catalog, changelog] = await Promise.all([
    getCatalog(deps.sql, deps.log),
    listChangelog(deps.sql, { limit: 200 }, []).catch(() => ({ entries: [] })),
  ])
  const latest = new Map<string, Overview['latestReleases'][number]>()
  for (const entry of changelog.entries ?? []) {
    if (!latest.has(entry.app))
      latest.set(entry.app, {
        app: entry.app,
        version: entry.version,
        name: entry.name,
        createdTime: entry.createdTime,
      })
  }
  const page = readDoc('overview')
  return {
    name: 'Guard',
    summary: docBody(page),
    products: productGuides().map(({ slug, name }) => ({ slug, name })),
    plans: catalog.plans.filter((plan) => plan.isActive !== false).map(({ id, name }) => ({ id, name })),
    latestReleases: [...latest.values()],
    links: platformLinks(deps.baseUrl),
  }
}
