import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type MonitorConfig, newId } from '@guard/shared'
import { afterAll } from 'vitest'
import { type ProbeEnv, parseProbeEnv } from '../env.ts'

/**
 * The state directories handed out, removed after the importing test file's tests. Registered when
 * the file imports this module, as vitest ends its workers without running exit hooks.
 */
const stateDirs: string[] = []
afterAll(async () => {
  await Promise.all(stateDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A probe configuration for tests: private targets allowed, state in a fresh temporary directory. */
export async function testProbeEnv(overrides: Record<string, string> = {}): Promise<ProbeEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'guard-probe-'))
  stateDirs.push(dir)
  return parseProbeEnv({
    GUARD_DATA_DIR: dir,
    GUARD_PROBE_LOCATION: 'fra',
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    LOG_LEVEL: 'silent',
    ...overrides,
  })
}

export const httpMonitor = (url: string, overrides: Partial<MonitorConfig> = {}): MonitorConfig => ({
  v: 1,
  id: newId(),
  organizationId: 'org',
  target: { kind: 'http', url, method: 'GET' },
  intervalSeconds: 5,
  timeoutSeconds: 2,
  locations: ['fra'],
  enabled: true,
  ...overrides,
})
