import { createLogger, openTestRelationalStore, type RelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateIdentity } from '../../server.ts'
import { getCatalog } from './get.ts'
import { importCatalog } from './import.ts'
import { seedCatalog } from './seed.ts'
import { bundledCatalog } from './static.ts'

const log = createLogger({ name: 'catalog-test', level: 'silent', pretty: false })
let sql: RelationalStore

beforeAll(async () => {
  sql = await openTestRelationalStore()
  await migrateIdentity(sql)
})
afterAll(() => sql?.close())

describe('catalog', () => {
  it('the first start seeds the example catalog, and a later start leaves a published one alone', async () => {
    await seedCatalog(sql)
    const seeded = await getCatalog(sql, log)
    expect(seeded.source).toBe('db')
    expect(seeded.plans).toEqual(bundledCatalog.document.plans)
    await importCatalog(sql, { plans: [{ id: 'solo', name: 'Solo' }], addons: [] })
    await seedCatalog(sql)
    expect((await getCatalog(sql, log)).plans).toEqual([{ id: 'solo', name: 'Solo' }])
  })

  it('import keeps fields beyond the spec and moves updatedAt', async () => {
    const before = (await getCatalog(sql, log)).updatedAt
    await new Promise((resolve) => setTimeout(resolve, 5))
    await importCatalog(sql, { plans: [{ id: 'solo', name: 'Solo', seats: 1, limits: { monitors: 3 } }], addons: [] })
    const after = await getCatalog(sql, log)
    expect(after.plans[0]).toEqual({ id: 'solo', name: 'Solo', seats: 1, limits: { monitors: 3 } })
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before))
  })

  it('import refuses a catalog without names, with non-integer caps or duplicate ids, naming the field', async () => {
    await expect(importCatalog(sql, { plans: [{ id: 'x' }], addons: [] })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('plans.0.name'),
    })
    await expect(
      importCatalog(sql, { plans: [{ id: 'x', name: 'X' }], addons: [], addOnCaps: { x: { sms: 1.5 } } }),
    ).rejects.toMatchObject({ message: expect.stringContaining('addOnCaps.x.sms') })
    await expect(
      importCatalog(sql, {
        plans: [
          { id: 'x', name: 'X' },
          { id: 'x', name: 'Y' },
        ],
        addons: [],
      }),
    ).rejects.toMatchObject({ message: "plans: duplicate id 'x'" })
    expect((await getCatalog(sql, log)).plans[0]?.id).toBe('solo')
  })
})
