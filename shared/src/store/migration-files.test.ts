import { readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { readMigrationFiles } from './migration-files.ts'

/** Every folder a Guard service migrates from, by the service and engine that record it. */
const folders = {
  'collector postgres': '../../../collector/migrations/postgres',
  'collector clickhouse': '../../../collector/migrations/clickhouse',
  'identity postgres': '../../../identity/migrations/postgres',
}

describe("Guard's migrations only go forward", () => {
  for (const [service, path] of Object.entries(folders)) {
    const directory = fileURLToPath(new URL(path, import.meta.url))

    test(`${service}: only NNN_name.sql files, numbers strictly increasing, none undoing another`, async () => {
      const entries = await readdir(directory)
      expect(entries.filter((name) => !/^\d{3}_[a-z0-9_]+\.sql$/.test(name))).toEqual([])
      const numbers = (await readMigrationFiles(directory)).map((file) => Number.parseInt(file.name, 10))
      expect(numbers.length).toBeGreaterThan(0)
      for (let index = 1; index < numbers.length; index++) {
        expect(numbers[index]).toBeGreaterThan(numbers[index - 1]!)
      }
      expect(entries.filter((name) => /(^|_)(down|undo|rollback|revert)(_|\.)/.test(name))).toEqual([])
    })
  }
})
