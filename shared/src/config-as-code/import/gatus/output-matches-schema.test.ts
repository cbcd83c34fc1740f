import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guardDocument } from '../../document.ts'
import { importGatus } from './import-gatus.ts'

describe('importGatus output', () => {
  it('is a valid guard.yaml document for every fixture', async () => {
    const fixtures = join(import.meta.dirname, 'fixtures')
    const names = (await readdir(fixtures)).filter((name) => !name.endsWith('.md'))
    expect(names.length).toBeGreaterThan(10)
    for (const name of names) {
      const { document } = await importGatus(join(fixtures, name), { now: new Date('2026-11-28T00:00:00Z') })
      const parsed = guardDocument.safeParse(document)
      expect(parsed.success ? [] : parsed.error.issues, name).toEqual([])
    }
  })
})
