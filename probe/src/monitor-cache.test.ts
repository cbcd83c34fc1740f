import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MonitorCache } from './monitor-cache.ts'
import { httpMonitor } from './testing/probe-env.ts'

const PASSWORD = 'cache-pw-Kq72-never-in-clear'

describe('the monitor cache on disk', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guard-monitor-cache-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  const withCredentials = () => {
    const monitor = httpMonitor('https://api.example.org/health')
    if (monitor.target.kind !== 'http') throw new Error('an HTTP monitor')
    return {
      ...monitor,
      target: { ...monitor.target, auth: { type: 'basic' as const, username: 'ann', password: PASSWORD } },
    }
  }

  it('is readable by its owner only and holds credentials sealed, opening them again on load', async () => {
    const key = randomBytes(32)
    const path = join(dir, 'probe-local', 'monitors.json')
    const monitor = withCredentials()
    const umask = process.umask(0o022)
    try {
      await new MonitorCache(path, key).close([monitor])
    } finally {
      process.umask(umask)
    }
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await stat(join(dir, 'probe-local'))).mode & 0o777).toBe(0o700)
    const text = await readFile(path, 'utf8')
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain('"ann"')
    expect(await new MonitorCache(path, key).load()).toEqual([monitor])
  })

  it('forgets what another key sealed: the monitors bucket refills the schedule', async () => {
    const path = join(dir, 'monitors.json')
    await new MonitorCache(path, randomBytes(32)).close([withCredentials()])
    expect(await new MonitorCache(path, randomBytes(32)).load()).toEqual([])
  })
})
