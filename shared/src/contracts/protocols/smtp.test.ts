import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { smtpProtocol } from './smtp.ts'

const problemsOf = (config: Parameters<NonNullable<typeof smtpProtocol.problems>>[0]) => smtpProtocol.problems!(config)

describe('smtpProtocol', () => {
  it('is a probe target with its options and a password secret', () => {
    const target = {
      kind: 'smtp',
      host: 'mx.example.org',
      port: 587,
      tls: 'starttls',
      ignoreTlsErrors: false,
      expectedBannerCode: 220,
      bannerKeyword: 'Postfix',
      ehloName: 'probe.example.org',
      username: 'monitor@example.org',
      secrets: { password: 'hunter2' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(smtpProtocol.secretFields).toEqual(['password'])
    expect(smtpProtocol.defaultPort).toBe(25)
  })

  it('rejects an unknown TLS mode, a banner code outside 200–599, an EHLO name with spaces and a username with CRLF', () => {
    const base = { kind: 'smtp', host: 'mx.example.org' }
    expect(monitorTarget.safeParse({ ...base, tls: 'ssl' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, expectedBannerCode: 199 }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, expectedBannerCode: 600 }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, ehloName: 'two words' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, ehloName: '[192.0.2.1]' }).success).toBe(true)
    expect(monitorTarget.safeParse({ ...base, username: 'a\r\nRCPT TO:<x@y>' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, secrets: { password: 'a\nb' } }).success).toBe(false)
  })

  it('sends a login only over TLS', () => {
    expect(problemsOf({ tls: 'none', username: 'alice' })).toEqual([
      [['username'], 'a login is sent only over TLS: set tls to starttls or implicit'],
    ])
    expect(problemsOf({ tls: 'none' })).toEqual([])
    expect(problemsOf({ username: 'alice' })).toEqual([])
  })

  it('refuses STARTTLS on port 465, which speaks TLS from the first byte', () => {
    expect(problemsOf({ port: 465, tls: 'starttls' })).toEqual([
      [['tls'], 'port 465 speaks TLS from the first byte: use implicit'],
    ])
    expect(problemsOf({ port: 465 })).toEqual([])
    expect(problemsOf({ port: 587, tls: 'starttls' })).toEqual([])
  })
})
