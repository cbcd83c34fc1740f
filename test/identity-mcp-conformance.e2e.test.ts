import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlatformTestIdentity, startPlatformIdentity } from '../identity/src/routes/testing.ts'

// 0.1.13 pinned: later releases do not run on Node 20.
const require = createRequire(import.meta.url)
const CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js')

/**
 * The server scenarios that apply to a public, read-only, stateless server with tools and
 * resources. The others need fixture tools, resources or prompts with fixed names
 * (test://static-text, json_schema_2020_12_tool, test_prompt_*), or capabilities this server does
 * not offer: logging, completion, subscriptions, sampling, elicitation, SSE streams.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']

let identity: PlatformTestIdentity

beforeAll(async () => {
  identity = await startPlatformIdentity()
})
afterAll(() => identity?.close())

describe('MCP conformance (@modelcontextprotocol/conformance 0.1.13)', () => {
  // Every scenario against /mcp; the alias serves the same handler, so two scenarios prove it is wired.
  const runs = [
    ...SCENARIOS.map((scenario) => ({ scenario, path: '/mcp' })),
    ...['server-initialize', 'tools-list'].map((scenario) => ({ scenario, path: '/.well-known/mcp' })),
  ]
  for (const { scenario, path } of runs) {
    it(`conformance scenario ${scenario} passes against ${path}`, async () => {
      const url = `${identity.url}${path}`
      const run = await promisify(execFile)(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario], {
        timeout: 20_000,
      }).catch((error: { code?: number; stdout?: string }) => error)
      expect(run.stdout, run.stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/)
      expect('code' in run ? run.code : 0).toBe(0)
    })
  }
})
