import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { catalogDocument } from './schema.ts'

const BUNDLED = new URL('../../../seed/catalog.json', import.meta.url)

/**
 * The catalog shipped with Guard: answered with `source: static` while the database is away, and
 * imported as the example catalog on the first start. Read once; it never changes at run time.
 */
export const bundledCatalog = (() => {
  const parsed = catalogDocument
    .extend({ updatedAt: z.iso.datetime() })
    .parse(JSON.parse(readFileSync(BUNDLED, 'utf8')))
  const { updatedAt, ...document } = parsed
  return { document, updatedAt }
})()
