import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guardDocument } from '../../document.ts'
import { importOpenstatus } from './import-openstatus.ts'

describe('importOpenstatus output', () => {
  it('is a valid guard.yaml document for every fixture', async () => {
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
