import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConfigCommand } from '../bin/commands/config.ts'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'

const GUARD_YAML = `version: 1
tags:
  - id: prod
    name: env:prod
channels:
  - id: ops
    name: Ops
    provider: webhook
    config:
      url: \${env:OPS_HOOK}
domains:
  - id: shop
    name: Shop
    url: https://shop.example.com
    tags: [prod]
services:
  - id: db
    name: DB
    protocol: tcp
    protocolConfig: { host: db.example.com, port: 5432 }
`

/** guard validate, plan, apply and export against a collector listening on 127.0.0.1. */
describe('guard validate, plan, apply and export', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let directory: string
  let env: NodeJS.ProcessEnv
  const run = async (command: 'validate' | 'plan' | 'apply' | 'export', args: string[]) => {
    const lines: string[] = []
    const code = await runConfigCommand(command, args, env, (text) => lines.push(text), false)
    return { code, output: lines.join('\n') }
  }

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    await app.listen({ port: 0, host: '127.0.0.1' })
    directory = await mkdtemp(join(tmpdir(), 'guard-config-cli-'))
    env = {
      GUARD_COLLECTOR_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      GUARD_API_KEY: harness.apiKey,
      GUARD_DATA_DIR: directory,
      OPS_HOOK: 'https://1.1.1.1/guard',
    }
    await writeFile(join(directory, 'guard.yaml'), GUARD_YAML)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('validate names the file, line and column of a problem and exits 1', async () => {
    const broken = join(directory, 'broken.yaml')
    await writeFile(broken, 'version: 1\ndomains:\n  - id: shop\n    group: nowhere\n')
    const answer = await run('validate', ['-f', broken])
    expect(answer).toEqual({ code: 1, output: `${broken}:4:5: domains[0].group: unknown group id nowhere` })
    expect((await run('validate', ['-f', join(directory, 'guard.yaml')])).code).toBe(0)
  })

  it('plan exits 2 with changes, apply makes them, then plan exits 0', async () => {
    const file = join(directory, 'guard.yaml')
    const planned = await run('plan', ['-f', file])
    expect(planned.code).toBe(2)
    expect(planned.output).toContain('+ domain shop')
    expect(planned.output).toContain('Plan: 3 to create, 0 to change, 0 to delete.')
    expect((await run('apply', ['-f', file])).code).toBe(0)
    const again = await run('plan', ['-f', file, '--json'])
    expect(again.code).toBe(0)
    expect(JSON.parse(again.output).changes).toEqual([])
  })

  it('export writes a file plan shows as no change', async () => {
    const exported = join(directory, 'exported.yaml')
    expect((await run('export', ['-o', exported])).code).toBe(0)
    expect(await readFile(exported, 'utf8')).toContain('id: shop')
    // The webhook's signing secret Guard generated: export names it, the user sets it.
    env = { ...env, GUARD_CHANNEL_OPS_CONFIG_SECRET: 'the-signing-secret' }
    const planned = await run('plan', ['-f', exported])
    expect(planned.output).toBe('No changes: the organization matches the document.')
    expect(planned.code).toBe(0)
  })

  it('plan exits 1 and names the field the collector refused', async () => {
    const file = join(directory, 'refused.yaml')
    await writeFile(
      file,
      `${GUARD_YAML}  - id: internal-db\n    name: Internal\n    protocol: tcp\n    protocolConfig: { host: db.example.com, port: 99999 }\n`,
    )
    const answer = await run('plan', ['-f', file])
    expect(answer.code).toBe(1)
    expect(answer.output).toContain('port')
  })
})
