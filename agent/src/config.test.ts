import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@guard/shared/config-error'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadAgentConfig, writeAgentConfig } from './config.ts'
import { parseAgentEnv } from './env.ts'
import { systemdUnit } from './install.ts'

describe('agent configuration', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-agent-config-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('reads the 0600 config file, then lets the environment and flags override it', async () => {
    const path = join(dir, 'agent.json')
    await writeAgentConfig(path, { collectorUrl: 'http://127.0.0.1:1', deviceId: 'd1', token: 'gdt_x' })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const env = parseAgentEnv({ GUARD_AGENT_CONFIG: path, GUARD_AGENT_INTERVAL_SECONDS: '15' })
    expect(loadAgentConfig(env)).toMatchObject({ deviceId: 'd1', intervalSeconds: 15, inventoryIntervalSeconds: 300 })
    expect(loadAgentConfig(env, { interval: '5', device: 'd2' })).toMatchObject({ deviceId: 'd2', intervalSeconds: 5 })
  })

  it('fails fast naming what is missing, without echoing the token', () => {
    const env = parseAgentEnv({ GUARD_AGENT_CONFIG: join(dir, 'none.json') })
    expect(() => loadAgentConfig(env)).toThrow(ConfigError)
    const bad = parseAgentEnv({
      GUARD_COLLECTOR_URL: 'ftp://x',
      GUARD_DEVICE_TOKEN: 'gdt_secret',
      GUARD_AGENT_SPOOL_DIR: dir,
    })
    expect(() => loadAgentConfig(bad, { config: undefined })).toThrow(/collectorUrl[\s\S]*deviceId/)
    try {
      loadAgentConfig(bad)
    } catch (error) {
      expect(String(error)).not.toContain('gdt_secret')
    }
  })

  it('writes a hardened systemd unit for an unprivileged user', () => {
    const unit = systemdUnit({
      execStart: '/usr/bin/node /opt/guard/bin/guard.mjs agent',
      configPath: '/etc/guard/agent.json',
      user: 'guard-agent',
    })
    for (const line of [
      'User=guard-agent',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'StateDirectory=guard-agent',
      'CapabilityBoundingSet=',
    ]) {
      expect(unit).toContain(line)
    }
  })
})
