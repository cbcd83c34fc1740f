import { openTestRelationalStore, type RelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateIdentity } from '../../server.ts'
import { addChangelogEntries } from './add.ts'
import { listChangelog } from './list.ts'
import { seedChangelog } from './seed.ts'

let sql: RelationalStore

beforeAll(async () => {
  sql = await openTestRelationalStore()
  await migrateIdentity(sql)
})
afterAll(() => sql?.close())

const entry = (id: string, createdTime: string) => ({
  id,
  name: `Release ${id}`,
  app: 'monitoring',
  version: '1.0.0',
  createdTime,
  contentMd: '## Notes',
})

describe('changelog', () => {
  it('the first start seeds the example release notes once', async () => {
    await seedChangelog(sql)
    const first = await listChangelog(sql, {}, [])
    await seedChangelog(sql)
    expect((await listChangelog(sql, {}, [])).entries).toEqual(first.entries)
    expect(first.entries?.length).toBeGreaterThan(0)
  })

  it('adding an entry with an existing id replaces it, so an import can be re-run', async () => {
    await addChangelogEntries(sql, [entry('r1', '2027-01-01T00:00:00Z')])
    await addChangelogEntries(sql, [{ ...entry('r1', '2027-01-01T00:00:00Z'), name: 'Renamed' }])
    const { entries } = await listChangelog(sql, { app: 'monitoring', limit: 1 }, [])
    expect(entries).toEqual([
      expect.objectContaining({ id: 'r1', name: 'Renamed', createdTime: '2027-01-01T00:00:00.000Z' }),
    ])
  })

  it('entries without a valid slug, date or content are refused, naming the field', async () => {
    await expect(addChangelogEntries(sql, [{ ...entry('r2', 'yesterday') }])).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('0.createdTime'),
    })
    await expect(
      addChangelogEntries(sql, [{ ...entry('r3', '2027-01-01T00:00:00Z'), app: 'Not A Slug' }]),
    ).rejects.toMatchObject({
      message: expect.stringContaining('0.app'),
    })
  })
})
