import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { redisProtocol } from './redis.ts'

describe('redisProtocol', () => {
  it('is a probe target with a read command, a database index and a write-only password', () => {
    const target = {
      kind: 'redis',
      host: 'cache.example.org',
      database: 2,
      command: ['get', 'health'],
      expectValue: 'ok',
      secrets: { password: 'secret' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(redisProtocol.secretFields).toEqual(['password'])
    expect(redisProtocol.defaultPort).toBe(6379)
  })

  it('refuses a command that writes or is not on the read list', () => {
    const base = { kind: 'redis', host: 'cache.example.org' }
    for (const command of [['SET', 'a', 'b'], ['FLUSHALL'], ['CONFIG', 'GET', '*'], ['EVAL', 'return 1', '0'], []]) {
      const parsed = monitorTarget.safeParse({ ...base, command })
      expect(parsed.success, command.join(' ')).toBe(false)
    }
    expect(monitorTarget.safeParse({ ...base, command: ['SET', 'a', 'b'] }).error?.issues[0]?.message).toMatch(
      /must start with a read-only command/,
    )
  })

  it('needs a command for its assertions', () => {
    expect(redisProtocol.problems?.({ expectRows: { count: 1 } })).toEqual([[['expectRows'], 'needs a command']])
    expect(redisProtocol.problems?.({ command: ['LLEN', 'q'], expectRows: { count: 1 } })).toEqual([])
  })
})
