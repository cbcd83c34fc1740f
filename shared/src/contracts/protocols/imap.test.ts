import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { imapProtocol } from './imap.ts'

const problemsOf = (config: Parameters<NonNullable<typeof imapProtocol.problems>>[0]) => imapProtocol.problems!(config)

describe('imapProtocol', () => {
  it('is a probe target with its options and a password secret, on port 993 by default', () => {
    const target = {
      kind: 'imap',
      host: 'mail.example.org',
      port: 143,
      tls: 'starttls',
      ignoreTlsErrors: true,
      username: 'monitor',
      secrets: { password: 'hunter2' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(imapProtocol.secretFields).toEqual(['password'])
    expect(imapProtocol.defaultPort).toBe(993)
  })

  it('rejects an unknown TLS mode and a username with a line break', () => {
    const base = { kind: 'imap', host: 'mail.example.org' }
    expect(monitorTarget.safeParse({ ...base, tls: 'tls' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, username: 'a\r\nDELE 1' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, username: 'x'.repeat(256) }).success).toBe(false)
  })

  it('sends a login only over TLS, and no STARTTLS on port 993', () => {
    expect(problemsOf({ port: 143, tls: 'none', username: 'monitor' })).toEqual([
      [['username'], 'a login is sent only over TLS: set tls to starttls or implicit'],
    ])
    expect(problemsOf({ tls: 'starttls' })).toEqual([
      [['tls'], 'port 993 speaks TLS from the first byte: use implicit'],
    ])
    expect(problemsOf({ port: 143, username: 'monitor' })).toEqual([])
  })
})
