import { z } from 'zod'

export const productSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a product slug: lowercase letters, digits and dashes')

export const changelogEntry = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1),
  app: productSlug,
  appColor: z.string().optional(),
  version: z.string().min(1),
  createdTime: z.iso.datetime({ offset: true }),
  contentMd: z.string(),
  coverImageUrl: z.url().nullable().optional(),
})

export type ChangelogEntry = z.infer<typeof changelogEntry>

export const changelogResponse = z.object({
  entries: z.array(changelogEntry).optional(),
  lastUpdated: z.iso.datetime().optional(),
  source: z.string().optional(),
  apps: z.array(productSlug).optional(),
})

export type Changelog = z.infer<typeof changelogResponse>

export const CHANGELOG_LIMIT = { min: 1, max: 200, default: 50 } as const
