import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@guard/shared/config-error'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AgentPaths, loadAgentConfig, writeAgentConfig } from './config.ts'
import { parseAgentEnv } from './env.ts'
import { systemdUnit } from './install.ts'

describe('agent configuration', () => {
  let dir: string
  /** Stand-ins for the machine's own places: a test never reads /etc/guard or a home directory. */
  let defaults: AgentPaths
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-agent-config-'))
    defaults = { configPath: join(dir, 'default-agent.json'), spoolDir: join(dir, 'default-spool') }
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('reads the 0600 config file, then lets the environment and flags override it', async () => {
    const path = join(dir, 'agent.json')
    await writeAgentConfig(path, { collectorUrl: 'http://127.0.0.1:1', deviceId: 'd1', token: 'gdt_x' })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const env = parseAgentEnv({ GUARD_AGENT_CONFIG: path, GUARD_AGENT_INTERVAL_SECONDS: '15' })
    expect(loadAgentConfig(env, {}, defaults)).toMatchObject({
      deviceId: 'd1',
      intervalSeconds: 15,
      inventoryIntervalSeconds: 300,
    })
    expect(loadAgentConfig(env, { interval: '5', device: 'd2' }, defaults)).toMatchObject({
      deviceId: 'd2',
      intervalSeconds: 5,
    })
  })

  it("without a path named, reads the default places it is given, never the machine's own", async () => {
    await writeAgentConfig(defaults.configPath, { collectorUrl: 'http://127.0.0.1:1', deviceId: 'd9', token: 'gdt_y' })
    expect(loadAgentConfig(parseAgentEnv({}), {}, defaults)).toMatchObject({
      deviceId: 'd9',
      spoolDir: defaults.spoolDir,
    })
  })

  it('fails fast naming what is missing, without echoing the token', () => {
    const env = parseAgentEnv({ GUARD_AGENT_CONFIG: join(dir, 'none.json') })
    expect(() => loadAgentConfig(env, {}, defaults)).toThrow(ConfigError)
    const bad = parseAgentEnv({
      GUARD_COLLECTOR_URL: 'ftp://x',
      GUARD_DEVICE_TOKEN: 'gdt_secret',
      GUARD_AGENT_SPOOL_DIR: dir,
    })
    expect(() => loadAgentConfig(bad, { config: undefined }, defaults)).toThrow(/collectorUrl[\s\S]*deviceId/)
    try {
      loadAgentConfig(bad, {}, defaults)
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
