import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'

// 0.1.13 pinned: later releases do not run on Node 20.
const require = createRequire(import.meta.url)
const CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js')

/**
 * The server scenarios that apply to the monitoring server: stateless, with tools and resources.
 * The others need fixture tools, resources or prompts with fixed names (test_simple_text,
 * test://static-text, …) or capabilities it does not offer: logging, completion, subscriptions,
 * sampling, elicitation, SSE streams.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']

describe('monitoring MCP conformance (@modelcontextprotocol/conformance 0.1.13)', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let base: string

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    base = await app.listen({ port: 0, host: '127.0.0.1' })
    harness.ctx.env.GUARD_COLLECTOR_PUBLIC_URL = base
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  const runs = [
    ...SCENARIOS.map((scenario) => ({ scenario, path: '/mcp' })),
    ...['server-initialize', 'tools-list'].map((scenario) => ({ scenario, path: '/api/mcp' })),
  ]
  for (const { scenario, path } of runs) {
    it(`conformance scenario ${scenario} passes against ${path}`, async () => {
      const run = await promisify(execFile)(
        process.execPath,
        [CLI, 'server', '--url', `${base}${path}`, '--scenario', scenario],
        { timeout: 20_000 },
      ).catch((error: { code?: number; stdout?: string }) => error)
      expect(run.stdout, run.stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/)
      expect('code' in run ? run.code : 0).toBe(0)
    })
  }
})
