import type { z } from 'zod'
import type { ProviderId } from './provider.ts'
import { providers } from './registry.ts'
import type { integrationPlatform } from './schemas.ts'

/**
 * The platforms Guard links to, with the product each neutral id stands for: static, the same for
 * every caller, so a client can name them before anything is linked.
 */
export function listPlatforms(
  shapes: Array<{ provider: ProviderId; collection: string; items: string }>,
): Array<z.infer<typeof integrationPlatform>> {
  return shapes.map(({ provider, collection, items }) => ({
    id: provider,
    name: providers[provider].product.name,
    description: providers[provider].product.description,
    path: `/api/${provider}/${collection}`,
    items,
  }))
}

/** How routes and messages name a platform: its product, with the neutral id its paths use. */
export const platformLabel = (id: ProviderId) => `${providers[id].product.name} (${id})`
