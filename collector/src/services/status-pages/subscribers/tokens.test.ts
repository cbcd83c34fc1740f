import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashSecret, isUnsubscribeToken, newConfirmSecret, sameSecret, unsubscribeToken } from './tokens.ts'

const sealKey = randomBytes(32)

describe('subscriber link tokens', () => {
  it('makes confirmation secrets of 256 random bits and keeps only their hash', () => {
    const { secret, hash } = newConfirmSecret()
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
    expect(hash).toBe(hashSecret(secret))
    expect(hash).not.toContain(secret)
    expect(newConfirmSecret().secret).not.toBe(secret)
  })

  it('accepts an unsubscribe token only for its own subscriber and only unaltered', () => {
    const token = unsubscribeToken(sealKey, 'sub-1')
    expect(isUnsubscribeToken(sealKey, token)).toBe('sub-1')
    const [, mac] = token.split('.')
    expect(isUnsubscribeToken(sealKey, `sub-2.${mac}`)).toBeUndefined()
    expect(isUnsubscribeToken(sealKey, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined()
    expect(isUnsubscribeToken(randomBytes(32), token)).toBeUndefined()
    expect(isUnsubscribeToken(sealKey, 'sub-1')).toBeUndefined()
    expect(isUnsubscribeToken(sealKey, `${token}.extra`)).toBeUndefined()
  })

  it('compares secrets of any length without throwing', () => {
    expect(sameSecret('abc', 'abc')).toBe(true)
    expect(sameSecret('abc', 'abd')).toBe(false)
    expect(sameSecret('abc', 'abcd')).toBe(false)
  })
})
