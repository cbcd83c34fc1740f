import { describe, expect, it } from 'vitest'
import { effectiveMailTls } from './mail-fields.ts'

describe('effectiveMailTls', () => {
  it('is implicit on the protocol’s TLS port, starttls on any other, and the given mode when there is one', () => {
    expect(effectiveMailTls({}, 993, 993)).toBe('implicit')
    expect(effectiveMailTls({ port: 143 }, 993, 993)).toBe('starttls')
    expect(effectiveMailTls({}, 25, 465)).toBe('starttls')
    expect(effectiveMailTls({ port: 465 }, 25, 465)).toBe('implicit')
    expect(effectiveMailTls({ port: 465, tls: 'none' }, 25, 465)).toBe('none')
  })
})
