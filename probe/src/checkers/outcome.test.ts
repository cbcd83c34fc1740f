import { TargetRefusedError } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { testContext } from '../testing/fixtures.ts'
import { httpChecker } from './http/check.ts'
import { classifyFailure, tlsErrorKind } from './outcome.ts'

const withCode = (code: string) => Object.assign(new Error(code), { code })

describe('why a check failed, machine-readable', () => {
  it('classifies thrown failures into the closed errorKind set', () => {
    const context = testContext()
    expect(classifyFailure(new TargetRefusedError('refused'), context)).toBe('refused_private_target')
    expect(classifyFailure(withCode('ECONNREFUSED'), context)).toBe('connect_refused')
    expect(classifyFailure(withCode('ENOTFOUND'), context)).toBe('dns')
    expect(classifyFailure(withCode('ECONNRESET'), context)).toBe('connection_reset')
    expect(classifyFailure(withCode('EHOSTUNREACH'), context)).toBe('unreachable')
    expect(classifyFailure(new Error('fetch failed', { cause: withCode('ECONNREFUSED') }), context)).toBe(
      'connect_refused',
    )
    expect(classifyFailure(new Error('more than 10 redirects'), context)).toBe('too_many_redirects')
    const aborted = new AbortController()
    aborted.abort()
    expect(classifyFailure(new Error('aborted'), { ...context, signal: aborted.signal })).toBe('timeout')
    expect(tlsErrorKind('certificate not valid: certificate has expired')).toBe('tls_expired')
    expect(tlsErrorKind('certificate not valid: DEPTH_ZERO_SELF_SIGNED_CERT')).toBe('tls_invalid')
  })

  it('refuses a private target as refused_private_target without telling what the name resolved to', async () => {
    const outcome = await httpChecker.check(
      { kind: 'http', url: 'http://localhost:1/', method: 'GET' },
      testContext(2000, false),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
    expect(outcome.error).toMatch(/^refused: localhost does not resolve to a public address/)
    expect(outcome.error).not.toMatch(/127\.0\.0\.1|::1|loopback/)
  })
})
