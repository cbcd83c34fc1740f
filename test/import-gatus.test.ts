import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { report } from '../bin/cli-kit.ts'
import { runImport } from '../bin/commands/import.ts'

const fixtures = join(import.meta.dirname, '../shared/src/config-as-code/import/gatus/fixtures')

/** `guard import gatus …` in-process, as the import dispatcher runs it, its output collected. */
async function run(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) }
  const code = await runImport(['gatus', ...argv], io).catch((error: unknown) =>
    report(error, 'import gatus', io, false),
  )
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('guard import gatus', () => {
  it('prints the document with the variables to set and what is not carried on top, a summary on stderr', async () => {
    const result = await run([join(fixtures, 'readme-alerting-pagerduty.yaml')])
    expect(result.code).toBe(0)
    const header = result.stdout.split('\n').filter((line) => line.startsWith('#'))
    expect(header[0]).toMatch(/^# Imported from Gatus \(.*readme-alerting-pagerduty\.yaml\) by guard import/)
    expect(header).toContain(
      '#   GUARD_CHANNEL_PAGERDUTY_ROUTING_KEY  (shared/src/config-as-code/import/gatus/fixtures/readme-alerting-pagerduty.yaml: alerting.pagerduty.integration-key)',
    )
    expect(header.filter((line) => line.includes('success-threshold'))).toHaveLength(2)
    const document = parse(result.stdout)
    expect(document.channels).toEqual([
      expect.objectContaining({
        id: 'pagerduty',
        provider: 'pagerduty',
        config: { routingKey: `\${env:GUARD_CHANNEL_PAGERDUTY_ROUTING_KEY}` },
      }),
    ])
    expect(document.domains.map((domain: { id: string }) => domain.id)).toEqual(['website', 'back-end'])
    expect(result.stderr).toBe(
      'imported 2 domains, 1 channels, 1 groups; 3 items not carried (listed in the file), 1 environment variables to set\n',
    )
  })

  it('writes --output once and refuses to overwrite it; --json gives the whole result', async () => {
    const output = join(await mkdtemp(join(tmpdir(), 'guard-import-')), 'guard.yaml')
    const source = join(fixtures, 'examples-multiple-config-files')
    expect((await run([source, '--output', output])).code).toBe(0)
    expect(parse(await readFile(output, 'utf8')).domains).toHaveLength(3)
    const again = await run([source, '-o', output])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('exists; give another --output or remove it')
    const json = JSON.parse((await run([source, '--json'])).stdout)
    expect(Object.keys(json)).toEqual(['document', 'unmapped', 'secrets'])
    expect(json.unmapped.map((item: { item: string }) => item.item)).toContain('metrics')
  })

  it('says what is wrong with the command line, the path or the configuration', async () => {
    expect(await run([])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing SOURCE') })
    expect(await run(['/nonexistent/config.yaml'])).toMatchObject({
      code: 2,
      stderr: '/nonexistent/config.yaml: no such file or directory\n',
    })
    const directory = await mkdtemp(join(tmpdir(), 'guard-import-'))
    await writeFile(join(directory, 'a.yaml'), 'endpoints: [\n')
    const broken = await run([join(directory, 'a.yaml')])
    expect(broken.code).toBe(78)
    expect(broken.stderr).toMatch(/^guard import gatus: .*a\.yaml: /)
    expect((await run(['--help'])).stdout).toContain('Usage: guard import gatus SOURCE')
  })
})
