import { z } from 'zod'

/**
 * RFC 8176 authentication method references a sign-in can carry: the password, a TOTP or recovery
 * code (otp), a passkey bound to one device (hwk) or synced between devices (swk), and mfa once
 * two factors were proved (a passkey with user verification counts as two: the device and the
 * PIN or biometric that unlocked it, as NIST SP 800-63B counts a multi-factor cryptographic authenticator).
 */
export const AMR_VALUES = ['pwd', 'otp', 'hwk', 'swk', 'mfa'] as const
export type Amr = (typeof AMR_VALUES)[number]

/** `acr` levels, lowest first: one factor, two factors, two factors of which a passkey (phishing-resistant). */
export const ACR_SINGLE = 'urn:guard:acr:sfa'
export const ACR_MULTI = 'urn:guard:acr:mfa'
export const ACR_PHISHING_RESISTANT = 'urn:guard:acr:phr'
export const ACR_VALUES = [ACR_SINGLE, ACR_MULTI, ACR_PHISHING_RESISTANT] as const
export type Acr = (typeof ACR_VALUES)[number]

/** What an organization asks of its members: owners choose. */
export const SECOND_FACTOR_POLICIES = ['off', 'passkey_or_totp', 'passkey'] as const
export const secondFactorPolicy = z
  .enum(SECOND_FACTOR_POLICIES)
  .describe('off; passkey_or_totp: members sign in with a second factor; passkey: that factor is a passkey')
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicy>

const usedPasskey = (amr: readonly string[]) => amr.includes('hwk') || amr.includes('swk')

export function acrOf(amr: readonly string[]): Acr {
  if (!amr.includes('mfa')) return ACR_SINGLE
  return usedPasskey(amr) ? ACR_PHISHING_RESISTANT : ACR_MULTI
}

const rank = (acr: Acr) => ACR_VALUES.indexOf(acr)

/** The acr a policy needs; off needs nothing beyond a sign-in. */
export function acrForPolicy(policy: SecondFactorPolicy): Acr {
  if (policy === 'passkey') return ACR_PHISHING_RESISTANT
  return policy === 'passkey_or_totp' ? ACR_MULTI : ACR_SINGLE
}

export const satisfies = (amr: readonly string[], needed: Acr) => rank(acrOf(amr)) >= rank(needed)

/** The strictest of several requirements. */
export const strictest = (levels: readonly Acr[]): Acr =>
  levels.reduce<Acr>((high, level) => (rank(level) > rank(high) ? level : high), ACR_SINGLE)

/** Adds what a second factor proved to what the session already had. */
export function withFactor(amr: readonly string[], factor: 'otp' | 'hwk' | 'swk'): Amr[] {
  const methods = new Set<Amr>(amr.filter((value): value is Amr => (AMR_VALUES as readonly string[]).includes(value)))
  methods.add(factor)
  methods.add('mfa')
  return AMR_VALUES.filter((value) => methods.has(value))
}
