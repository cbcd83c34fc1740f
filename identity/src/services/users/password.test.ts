import { describe, expect, it } from 'vitest'
import { hashPassword, randomPassword, verifyPassword } from './password.ts'

describe('password hashing', () => {
  it('verifies the password it hashed and refuses another', async () => {
    const stored = await hashPassword('correct horse battery staple')
    expect(stored).not.toContain('correct horse')
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
    expect(await verifyPassword('Correct horse battery staple', stored)).toBe(false)
  })

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'))
  })

  it('generates random passwords of at least 128 bits', () => {
    expect(randomPassword().length).toBeGreaterThanOrEqual(22)
    expect(randomPassword()).not.toBe(randomPassword())
  })
})
