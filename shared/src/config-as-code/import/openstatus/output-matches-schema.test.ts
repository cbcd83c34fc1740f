import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { importOpenstatus } from './import-openstatus.ts'

// The guard.yaml schema is another branch's (issue 32); this runs once both are merged.
const schemaFile = join(import.meta.dirname, '../../document.ts')

describe.skipIf(!existsSync(schemaFile))('importOpenstatus output', () => {
  it('is a valid guard.yaml document for every fixture', async () => {
    const { guardDocument } = (await import(schemaFile)) as { guardDocument: z.ZodType }
    const fixtures = join(import.meta.dirname, 'fixtures')
    const names = (await readdir(fixtures)).filter((name) => name.endsWith('.yaml'))
    expect(names.length).toBeGreaterThan(3)
    for (const name of names) {
      const { document } = await importOpenstatus(join(fixtures, name))
      const parsed = guardDocument.safeParse(document)
      expect(parsed.success ? [] : parsed.error.issues, name).toEqual([])
    }
  })
})
