import type { Logger, Sql } from '@guard/shared'
import { z } from 'zod'
import { getCatalog } from '../catalog/get.ts'
import { planItem } from '../catalog/schema.ts'
import { listChangelog } from '../changelog/list.ts'
import { productGuides } from '../docs/products.ts'

export const listProductsInput = {
  includeInactive: z.boolean().optional().describe('Also list plans and add-ons that are no longer sold'),
}

export const listProductsOutput = z.object({
  products: z.array(
    z.object({ slug: z.string(), name: z.string(), whenToUse: z.string(), latestVersion: z.string().optional() }),
  ),
  plans: z.array(planItem),
  addons: z.array(planItem),
  bundles: z.array(planItem),
  source: z.enum(['db', 'static']),
})

export type ProductList = z.infer<typeof listProductsOutput>

/** Products from the guide, with their latest release from the changelog and what is sold from the catalog. */
export async function listProducts(
  deps: { sql: Sql; log: Logger },
  input: { includeInactive?: boolean | undefined },
): Promise<ProductList> {
  const [catalog, changelog] = await Promise.all([
    getCatalog(deps.sql, deps.log),
    listChangelog(deps.sql, { limit: 200 }, []).catch(() => ({ entries: [] })),
  ])
  const sold = <T extends { isActive?: boolean | undefined }>(items: T[]) =>
    input.includeInactive ? items : items.filter((item) => item.isActive !== false)
  const latestVersion = (slug: string) => changelog.entries?.find((entry) => entry.app === slug)?.version
  return {
    products: productGuides().map((guide) => {
      const version = latestVersion(guide.slug)
      return { ...guide, ...(version ? { latestVersion: version } : {}) }
    }),
    plans: sold(catalog.plans),
    addons: sold(catalog.addons),
    bundles: sold(catalog.bundles ?? []),
    source: catalog.source,
  }
}
