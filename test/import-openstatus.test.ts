import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { report } from '../bin/cli-kit.ts'
import { runImport } from '../bin/commands/import.ts'

const fixtures = join(import.meta.dirname, '../shared/src/config-as-code/import/openstatus/fixtures')

/** `guard import openstatus …` in-process, as the import dispatcher runs it, its output collected. */
async function run(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) }
  const code = await runImport(['openstatus', ...argv], io).catch((error: unknown) =>
    report(error, 'import openstatus', io, false),
  )
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('guard import openstatus', () => {
  it('maps regions by the default table, then by --regions-file, then by --regions', async () => {
    const source = join(fixtures, 'cli-reference-complete-example.yaml')
    const byDefault = parse((await run([source])).stdout)
    expect(byDefault.domains[0].locations).toEqual(['iad', 'fra', 'sin', 'syd'])
    const file = join(await mkdtemp(join(tmpdir(), 'guard-import-')), 'regions.json')
    await writeFile(file, JSON.stringify({ iad: 'us-east', fra: 'eu-central', syd: '-' }))
    const result = await run([source, '--regions-file', file, '--regions', 'iad=us-east-1'])
    expect(result.code).toBe(0)
    const document = parse(result.stdout)
    expect(document.domains[0].locations).toEqual(['us-east-1', 'eu-central', 'sin'])
    expect(document.services[0].locations).toEqual(['us-east-1', 'eu-central'])
    expect(result.stderr).toBe(
      'imported 2 domains, 1 services; 4 items not carried (listed in the file), 1 environment variables to set\n',
    )
  })

  it('refuses a region mapping that is not REGION=LOCATION, and a file that is not an openstatus.yaml', async () => {
    const source = join(fixtures, 'cli-test-monitor.yaml')
    const bad = await run([source, '--regions', 'iad'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--regions: iad= is not REGION=LOCATION')
    const list = join(await mkdtemp(join(tmpdir(), 'guard-import-')), 'openstatus.yaml')
    await writeFile(list, '- not: a monitor map\n')
    expect(await run([list])).toMatchObject({
      code: 78,
      stderr: expect.stringContaining('expected a mapping of monitor ids'),
    })
    expect(await run([source, '--regions-file', '/nonexistent/regions.yaml'])).toMatchObject({
      code: 2,
      stderr: '/nonexistent/regions.yaml: no such file or directory\n',
    })
  })
})
