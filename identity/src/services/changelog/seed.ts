import { readFile } from 'node:fs/promises'
import type { Sql } from '@guard/shared'
import { addChangelogEntries } from './add.ts'

const EXAMPLE = new URL('../../../seed/changelog.json', import.meta.url)

/** On the first start (no entries at all), publishes the example release notes. */
export async function seedChangelog(sql: Sql): Promise<void> {
  const { rows } = await sql.query('SELECT 1 FROM identity.changelog_entries LIMIT 1')
  if (rows.length > 0) return
  await addChangelogEntries(sql, JSON.parse(await readFile(EXAMPLE, 'utf8')))
}
