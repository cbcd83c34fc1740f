import { errorKind } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { publicReason } from './public-reason.ts'

describe('publicReason', () => {
  it('words every error kind plainly, without addresses, ports or codes', () => {
    for (const kind of errorKind.options) {
      expect(publicReason(kind)).toMatch(/^[A-Z][a-zA-Z ]+$/)
    }
    expect(publicReason('connect_refused')).toBe('Connection refused')
    expect(publicReason('dns')).toBe('DNS lookup failed')
  })

  it('names the HTTP status when the status was the failure, or when an older probe sent only a status', () => {
    expect(publicReason('status_mismatch', 503)).toBe('Unexpected status 503')
    expect(publicReason(undefined, 502)).toBe('Unexpected status 502')
    expect(publicReason('timeout', 504)).toBe('Timed out')
    expect(publicReason(null)).toBe('Checks failing')
  })
})
