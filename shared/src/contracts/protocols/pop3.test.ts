import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { pop3Protocol } from './pop3.ts'

const problemsOf = (config: Parameters<NonNullable<typeof pop3Protocol.problems>>[0]) => pop3Protocol.problems!(config)

describe('pop3Protocol', () => {
  it('is a probe target with its options and a password secret, on port 995 by default', () => {
    const target = {
      kind: 'pop3',
      host: 'mail.example.org',
      port: 110,
      tls: 'starttls',
      ignoreTlsErrors: true,
      username: 'monitor',
      secrets: { password: 'hunter2' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(pop3Protocol.secretFields).toEqual(['password'])
    expect(pop3Protocol.defaultPort).toBe(995)
  })

  it('rejects an unknown TLS mode and a username with a line break', () => {
    const base = { kind: 'pop3', host: 'mail.example.org' }
    expect(monitorTarget.safeParse({ ...base, tls: 'tls' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, username: 'a\r\nDELE 1' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, username: 'x'.repeat(256) }).success).toBe(false)
  })

  it('sends a login only over TLS, and no STARTTLS on port 995', () => {
    expect(problemsOf({ port: 110, tls: 'none', username: 'monitor' })).toEqual([
      [['username'], 'a login is sent only over TLS: set tls to starttls or implicit'],
    ])
    expect(problemsOf({ tls: 'starttls' })).toEqual([
      [['tls'], 'port 995 speaks TLS from the first byte: use implicit'],
    ])
    expect(problemsOf({ port: 110, username: 'monitor' })).toEqual([])
  })
})
