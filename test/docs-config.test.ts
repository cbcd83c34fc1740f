import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { configurationPage, renderConfigurationTables, replaceGenerated } from '../bin/docs-config.ts'

describe('docs/configuration.md', () => {
  it('holds the tables generated from the env schemas', () => {
    const page = readFileSync(configurationPage, 'utf8')
    expect(page, 'docs/configuration.md differs from the env schemas: run `npx tsx bin/docs-config.ts`').toBe(
      replaceGenerated(page, renderConfigurationTables()),
    )
  })

  it('marks secrets and documents every variable of every process', () => {
    const tables = renderConfigurationTables()
    expect(tables).toContain('| `GUARD_SECRET_KEY` (secret) |')
    expect(tables).toContain('| `GUARD_DEVICE_TOKEN` (secret) | agent |')
    for (const name of [
      'GUARD_COLLECTOR_PORT',
      'GUARD_IDENTITY_PORT',
      'GUARD_PROBE_LOCATION',
      'GUARD_AGENT_SPOOL_DIR',
    ]) {
      expect(tables).toContain(`| \`${name}\``)
    }
  })
})
