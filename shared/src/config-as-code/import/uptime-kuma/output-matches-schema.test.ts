import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guardDocument, referenceProblems } from '../../index.ts'
import { importUptimeKuma } from './import.ts'
import { sqliteAvailable } from './sqlite.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
const hasSqlite = await sqliteAvailable()

describe('an imported Uptime Kuma document', () => {
  it.each([
    ['kuma-2.db', !hasSqlite],
    ['kuma-1.db', !hasSqlite],
    ['kuma-1.23-backup.json', false],
  ])('from %s is a guard.yaml document whose references all resolve', async (fixture, skip) => {
    if (skip) return
    const { document } = await importUptimeKuma(join(fixtures, fixture))
    const parsed = guardDocument.safeParse(document)
    expect(parsed.error?.issues ?? []).toEqual([])
    expect(referenceProblems(parsed.data!)).toEqual([])
  })
})
